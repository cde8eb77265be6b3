import type { Agent } from '../agents/index.js';
import { createFuzzyLexicon, MIN_FUZZY_LENGTH, type FuzzyLexicon } from '../retrieval/index.js';
import { englishDictionary } from './english-dictionary.js';
import { analyzeText, isContentWord, type QueryText } from './query-text.js';

/** Evidence weight of a keyword naming one concept ("gpu"): suggestive, below the 0.7 threshold alone. */
export const SINGLE_KEYWORD_WEIGHT = 0.6;
/** Evidence weight of a keyword phrase of two or more content words ("isaac sim"): strong alone. */
export const PHRASE_KEYWORD_WEIGHT = 0.8;
/** A keyword matched through a typo ("capston") counts for this share of its weight. */
export const FUZZY_MATCH_FACTOR = 0.9;

/** One keyword of an agent as it is matched: its stems, as a phrase. */
export interface CompiledKeyword {
  agent: string;
  /** The position of its agent in {@link CompiledKeywords.agents}. */
  slot: number;
  keyword: string;
  stems: readonly string[];
  weight: number;
  /**
   * For a name of letters and digits ("H1", "Go2"): the name written glued to more letters or
   * digits ("h1b", "g12"), another name whose split words start the same; absent otherwise.
   */
  gluedOn?: RegExp;
  /** The name written on its own, which a glued one does not cancel. */
  alone?: RegExp;
}

/** Agents' keywords, compiled once: phrases indexed by their first stem, plus a typo lexicon. */
export interface CompiledKeywords {
  readonly agents: readonly string[];
  readonly byFirstStem: ReadonlyMap<string, CompiledKeyword[]>;
  readonly lexicon: FuzzyLexicon;
  /** Stem of each lexicon word, so a corrected word maps straight onto keyword stems. */
  readonly stemOf: ReadonlyMap<string, string>;
  /**
   * Per `isWord` and query word (bounded): the keyword stem the word is a typo of, or null.
   * Filled by {@link scoreKeywords}.
   */
  readonly typoOf: WeakMap<(word: string) => boolean, Map<string, string | null>>;
}

const isEnglishWord = (word: string): boolean => englishDictionary().has(word);

const TYPO_CACHE_LIMIT = 20_000;

/** What {@link scoreKeywords} needs of a word, when its caller knows it already. */
export interface KnownKeywordWord {
  readonly keywordTypo: string | undefined;
  readonly keywords: readonly CompiledKeyword[] | undefined;
}

/** The keyword evidence for one agent. */
export interface KeywordMatch {
  /** 0..1: 1 − Π(1 − weight) over the distinct keywords found. */
  score: number;
  /** The keywords found, as written in the agent spec ("capstone (~capston)" for a typo match). */
  matched: string[];
}

/**
 * Compiles the keywords of one or more agents into one index, so a query is scanned once for all
 * of them: each keyword becomes a sequence of stems, matched as a contiguous phrase.
 *
 * @example
 * const compiled = compileKeywords(registry.all());
 */
export function compileKeywords(
  agents: Pick<Agent, 'name' | 'keywords'> | ReadonlyArray<Pick<Agent, 'name' | 'keywords'>>,
): CompiledKeywords {
  const list: ReadonlyArray<Pick<Agent, 'name' | 'keywords'>> =
    'keywords' in agents ? [agents] : agents;
  const byFirstStem = new Map<string, CompiledKeyword[]>();
  const words: string[] = [];
  const stemOf = new Map<string, string>();
  // Each name once: a name given twice has one entry in the scores, as before slots.
  const names = [...new Set(list.map((agent) => agent.name))];
  for (const agent of list) {
    const slot = names.indexOf(agent.name);
    for (const keyword of new Set(agent.keywords.map((k) => k.trim()).filter(Boolean))) {
      const text = analyzeText(keyword);
      const first = text.stems[0];
      if (first === undefined) continue;
      const content = text.words.filter(isContentWord).length;
      const weight = content >= 2 ? PHRASE_KEYWORD_WEIGHT : SINGLE_KEYWORD_WEIGHT;
      const entries = byFirstStem.get(first) ?? [];
      const compact = keyword.toLowerCase();
      entries.push(
        /^[a-z]+\d+$/.test(compact)
          ? {
              agent: agent.name,
              slot,
              keyword,
              stems: text.stems,
              weight,
              gluedOn: new RegExp(`(?<![a-z0-9])${compact}[a-z0-9]`, 'i'),
              alone: new RegExp(`(?<![a-z0-9])${compact}(?![a-z0-9])`, 'i'),
            }
          : { agent: agent.name, slot, keyword, stems: text.stems, weight },
      );
      // Longest phrases first, so "isaac sim" wins over "isaac" at the same position.
      entries.sort((a, b) => b.stems.length - a.stems.length);
      byFirstStem.set(first, entries);
      text.words.forEach((word, i) => {
        words.push(word);
        stemOf.set(word, text.stems[i] ?? word);
      });
    }
  }
  return {
    agents: names,
    byFirstStem,
    lexicon: createFuzzyLexicon(words),
    stemOf,
    typoOf: new WeakMap(),
  };
}

/**
 * The keyword stem `word` (whose stem is `stem`) is a typo of, or undefined: a word that starts
 * no keyword may be a typo of a keyword word, unless it is a word of its own (`isWord`: "reset"
 * is not a typo of "reuse") or too short to tell. Uncached: see {@link scoreKeywords}.
 *
 * @example
 * keywordTypo(compileKeywords(capstone), 'capstne', stemWord('capstne'), isEnglish); // 'capston' (of "capstone")
 */
export function keywordTypo(
  compiled: CompiledKeywords,
  word: string,
  stem: string,
  isWord: (word: string) => boolean,
): string | undefined {
  if (word.length < MIN_FUZZY_LENGTH - 1 || compiled.byFirstStem.has(stem)) return undefined;
  if (compiled.lexicon.has(word) || isWord(word)) return undefined;
  const corrected = compiled.lexicon.correct(word);
  return corrected === undefined ? undefined : compiled.stemOf.get(corrected);
}

// The typo of each query word (see keywordTypo), remembered per `isWord` and word: what a word
// may be a typo of does not depend on the question.
function typosOf(
  compiled: CompiledKeywords,
  query: QueryText,
  isWord: (word: string) => boolean,
): Array<string | undefined> {
  const { stems, words } = query;
  let typoOf = compiled.typoOf.get(isWord);
  if (!typoOf) compiled.typoOf.set(isWord, (typoOf = new Map()));
  const fuzzy = new Array<string | undefined>(words.length);
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    const stem = stems[i] ?? '';
    if (word.length < MIN_FUZZY_LENGTH - 1 || compiled.byFirstStem.has(stem)) continue;
    const known = typoOf.get(word);
    if (known !== undefined) {
      fuzzy[i] = known ?? undefined;
      continue;
    }
    const found = keywordTypo(compiled, word, stem, isWord);
    if (typoOf.size < TYPO_CACHE_LIMIT) typoOf.set(word, found ?? null);
    fuzzy[i] = found;
  }
  return fuzzy;
}

/** What {@link scoreKeywords} needs of each word, looked up here when the caller has none. */
function knownWords(
  compiled: CompiledKeywords,
  query: QueryText,
  isWord: (word: string) => boolean,
): KnownKeywordWord[] {
  // Array.from, not map: the typos' array has holes where a word is no typo.
  return Array.from(typosOf(compiled, query, isWord), (keywordTypo, i) => ({
    keywordTypo,
    keywords: compiled.byFirstStem.get(keywordTypo ?? query.stems[i] ?? ''),
  }));
}

/**
 * Scores how strongly `query` matches each compiled agent's keywords: distinct keywords found as
 * phrases (stemmed, so "topics" matches "topic"), each query word used once per agent, small typos
 * of words that are not English (`isWord`, WordNet by default) tolerated. Every compiled agent gets an entry, 0 when nothing matched.
 *
 * @example
 * scoreKeywords(compileKeywords(capstone), analyzeText('Capstone milestones')).capstone.score; // 0.84
 */
export function scoreKeywords(
  compiled: CompiledKeywords,
  query: QueryText,
  options: {
    isWord?: (word: string) => boolean;
    /**
     * What the caller knows of each word already, index for index (a router's word records):
     * the keyword stem it is a typo of ({@link keywordTypo} with the same `isWord`) and the
     * phrases that may start at it (`byFirstStem` of its typo, else of its stem); not looked up
     * again.
     */
    known?: ReadonlyArray<KnownKeywordWord>;
  } = {},
): Record<string, KeywordMatch> {
  const { stems, words } = query;
  const known = options.known ?? knownWords(compiled, query, options.isWord ?? isEnglishWord);

  // Per agent slot (see CompiledKeyword.slot), in arrays reused from call to call (scoring is
  // synchronous): a clause's matches are few and its agents a handful, so arrays read by position
  // cost less than maps made for each clause that matches.
  const count = compiled.agents.length;
  for (let a = 0; a < count; a += 1) {
    MISS[a] = 1;
    NEXT_FREE[a] = 0;
    MATCHED[a] = undefined;
  }
  for (let i = 0; i < stems.length; i += 1) {
    const candidates = known[i]!.keywords;
    if (!candidates) continue;
    for (const keyword of candidates) {
      const slot = keyword.slot;
      if (NEXT_FREE[slot]! > i) continue;
      // The phrase's stems follow, each as written or through a typo (a loop, no closure).
      let typo = false;
      let fits = true;
      for (let k = 0; k < keyword.stems.length; k += 1) {
        const stem = keyword.stems[k];
        if (stems[i + k] === stem) continue;
        if (known[i + k]?.keywordTypo === stem) typo = true;
        else {
          fits = false;
          break;
        }
      }
      if (!fits || (keyword.gluedOn && writtenGluedOn(keyword, query.raw))) continue;
      NEXT_FREE[slot] = i + keyword.stems.length;
      let found = MATCHED[slot];
      if (found !== undefined && alreadyFound(found, keyword)) continue;
      const label = typo
        ? `${keyword.keyword} (~${words.slice(i, i + keyword.stems.length).join(' ')})`
        : keyword.keyword;
      if (found === undefined) MATCHED[slot] = found = [];
      found.push(label);
      MISS[slot] = MISS[slot]! * (1 - keyword.weight * (typo ? FUZZY_MATCH_FACTOR : 1));
    }
  }
  const result: Record<string, KeywordMatch> = {};
  for (let a = 0; a < count; a += 1) {
    result[compiled.agents[a]!] = {
      score: Math.round((1 - MISS[a]!) * 1000) / 1000,
      matched: MATCHED[a] ?? [],
    };
  }
  return result;
}

// scoreKeywords' working state per agent slot: the running product of (1 − weight) over the
// keywords found, the first word a next keyword may start at, and the keywords found.
const MISS: number[] = [];
const NEXT_FREE: number[] = [];
const MATCHED: Array<string[] | undefined> = [];

/** True when the query writes `keyword` (a letters-and-digits name) only glued to more of them. */
function writtenGluedOn(keyword: CompiledKeyword, raw: string): boolean {
  return keyword.gluedOn!.test(raw) && !keyword.alone!.test(raw);
}

/** True when `found` already holds `keyword`, as written or read through a typo. */
function alreadyFound(found: readonly string[], keyword: CompiledKeyword): boolean {
  for (const entry of found) {
    if (entry === keyword.keyword) return true;
    // `${keyword} (~…)` without building that prefix for every entry.
    if (entry.startsWith(keyword.keyword) && entry.startsWith(' (~', keyword.keyword.length))
      return true;
  }
  return false;
}

const COMPILED = new WeakMap<object, CompiledKeywords>();

/**
 * The spec's `can_handle`: how strongly `query` matches `agent`'s keywords, 0..1. A single keyword
 * stays below the default 0.7 threshold; a specific phrase or two keywords reach it.
 *
 * @example
 * canHandle(capstoneAgent, 'Capstone milestones'); // 0.84
 * canHandle(capstoneAgent, 'tell me a joke'); // 0
 */
export function canHandle(
  agent: Pick<Agent, 'name' | 'keywords'>,
  query: string | QueryText,
): number {
  let compiled = COMPILED.get(agent);
  if (!compiled) {
    compiled = compileKeywords(agent);
    COMPILED.set(agent, compiled);
  }
  return (
    scoreKeywords(compiled, typeof query === 'string' ? analyzeText(query) : query)[agent.name]
      ?.score ?? 0
  );
}
