import type { Agent } from '../agents/index.js';
import type { BookKnowledge } from '../schema/index.js';
import { englishDictionary, type EnglishDictionary } from './english-dictionary.js';
import { OTHER_LANGUAGE_WORDS } from './other-language-words.js';
import { createFuzzyLexicon, MIN_FUZZY_LENGTH, type FuzzyLexicon } from '../retrieval/index.js';
import {
  trainIntentClassifier,
  type FeatureBundle,
  type IntentClassifier,
  type TrainingSample,
} from './intent-classifier.js';
import { detectIntentCues, type IntentCues } from './intent-cues.js';
import {
  compileKeywords,
  keywordTypo,
  scoreKeywords,
  type CompiledKeywords,
  type KeywordMatch,
} from './keyword-scorer.js';
import {
  charGramBundles,
  DEFAULT_FEATURE_WEIGHTS,
  extractFeatureList,
  extractFeatures,
  type FeatureWeights,
  keysOf,
  wordKey,
} from './query-features.js';
import { FeatureListBuilder, type FeatureList } from './feature-ids.js';
import { LetterRunMemo } from './letter-run-memo.js';
import {
  analyzeText,
  isContentWord,
  stemWord,
  textWords,
  STOPWORDS,
  type QueryText,
} from './query-text.js';
import { compileKnowledge, type CompiledKnowledge, type Grounding } from './subject-grounding.js';
import {
  FUZZY_WORDS_PER_QUESTION,
  wordRecords,
  type RecordOf,
  type WordRecord,
} from './word-records.js';

/** A keyword written in an agent spec counts as this fraction of an example question in training. */
export const KEYWORD_SAMPLE_WEIGHT = 0.5;

/** Share of a query's content words that must be known from training for it to count as on topic. */
export const MIN_KNOWN_SHARE = 0.5;

const CORRECTION_CACHE_LIMIT = 20_000;

/** Everything the router knows about one query. */
export interface AnalyzedQuery {
  /** The query with misspelt words replaced by the known words they most likely mean. */
  text: QueryText;
  /** `typo → correction` pairs that were applied. */
  corrections: Array<[string, string]>;
  cues: IntentCues;
  /** Keyword evidence per agent (every agent, including the default). */
  keywords: Record<string, KeywordMatch>;
  /**
   * The classifier's input: sparse features (by id, see feature-ids.ts), plus each word's
   * character n-grams as a bundle. The features are the model's one reused list: read them
   * before the model analyses another query.
   */
  features: FeatureList;
  bundles: FeatureBundle[];
  /** False when nothing in the query ties it to any agent's vocabulary (see {@link MIN_KNOWN_SHARE}). */
  onTopic: boolean;
  /** The model's record of each word of `text`, index for index. */
  records: readonly WordRecord[];
  /** What the book says about the query's subject; absent when the router has no book knowledge. */
  grounding?: Grounding;
}

/**
 * The question forms already detected in some words (by the clause splitter): reused when the
 * query's words, after spelling correction, are the same words.
 */
export interface KnownForm {
  words: readonly string[];
  cues: IntentCues;
  /** The asking clause these words are of, when it is not the whole text (context before it). */
  text?: string;
}

const isAsciiLetter = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
// NaN (before the start or past the end of the text) is not a digit.
const isAsciiDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
/** True when `text[from, to)` has a lowercase ASCII letter. */
function hasLowerCase(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x61 && code <= 0x7a) return true;
  }
  return false;
}

// Every query's features are gathered here, then copied out at their own size (one at a time:
// routing is synchronous).
const featureList = new FeatureListBuilder();

const sameWords = (a: readonly string[], b: readonly string[]): boolean =>
  a === b || (a.length === b.length && a.every((word, i) => word === b[i]));

/** The compiled routing state of one set of agents. */
export interface RoutingModel {
  readonly agents: readonly Agent[];
  readonly defaultAgent: string;
  readonly classifier: IntentClassifier;
  /** The book knowledge the model was built with, compiled; absent before any is learnt. */
  readonly knowledge?: CompiledKnowledge;
  /** Analyses a query, or finishes analysing one whose keyword evidence is already known. */
  analyze(query: string | KeywordEvidence, form?: KnownForm): AnalyzedQuery;
  /** Keyword evidence alone (as in {@link AnalyzedQuery.keywords}): cheaper than `analyze`. */
  keywords(query: string): KeywordEvidence;
  /**
   * The query with its mistyped question and function words written as meant ("waht is…" →
   * "what is…"; see {@link mistypedFunctionWord}), so that splitting it into asks and reading its
   * form see them; never an English word or one the book or the agents use. Same text when none.
   */
  readQuestionWords(query: string): { text: string; corrections: Array<[string, string]> };
  /**
   * The same model with its classifier trained without the examples `excluded` picks (by agent
   * and example index) at a fixed temperature: one fold of a cross-validation.
   */
  fold(excluded: (agent: string, example: number) => boolean, temperature: number): RoutingModel;
}

/** A query's words and its keyword matches per agent: the first step of `analyze`. */
export interface KeywordEvidence {
  text: QueryText;
  keywords: Record<string, KeywordMatch>;
  /** The model's record of each word, index for index (see {@link WordRecord}). */
  records: readonly WordRecord[];
}

/**
 * Chat spellings of "what" that English also lists as words of their own ("wat" is a temple,
 * "wats" its plural), so neither speller would read them as meant: "wats a quaternion" asks what
 * a quaternion is, and its "wats" is no subject the book must cover.
 */
const CHAT_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ['wats', 'whats'],
  ['wuts', 'whats'],
]);

/**
 * The question or function word a short unknown word was meant to be, one slip away: two
 * neighbouring letters swapped ("waht" → "what", "teh" → "the"), a letter doubled or added
 * ("whhat" → "what") or a letter left out ("wht" → "what", "whch" → "which"). Short words are
 * otherwise never corrected (they collide too easily), but these slips onto the few question and
 * function words are safe when only one such word fits ("hwo" is "how" or "who": neither), and
 * those words carry the question's form. A function word of another language is never one
 * ({@link OTHER_LANGUAGE_WORDS}: "ist" is German, not "its" mistyped).
 *
 * @example
 * mistypedFunctionWord('waht'); // 'what'
 */
export function mistypedFunctionWord(word: string): string | undefined {
  if (word.length < 3 || word.length > 7 || STOPWORDS.has(word)) return undefined;
  // A function word of another language is a word, not a slip ("Was ist …" is not "Was its …").
  if (OTHER_LANGUAGE_WORDS.has(word)) return undefined;
  let found: string | undefined;
  const consider = (candidate: string): boolean => {
    if (candidate.length < 3 || candidate === found || !STOPWORDS.has(candidate)) return true;
    if (found) return false;
    found = candidate;
    return true;
  };
  for (let i = 0; i < word.length; i += 1) {
    // A letter too many, on a word of five letters or more ("whhat"): from four, too many
    // words lose a letter onto a function word ("todo" is not "too").
    if (word.length >= 5 && !consider(word.slice(0, i) + word.slice(i + 1))) return undefined;
    // Two neighbouring letters swapped.
    if (
      i + 1 < word.length &&
      !consider(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))
    )
      return undefined;
  }
  // A letter left out.
  for (const candidate of STOPWORDS)
    if (candidate.length === word.length + 1 && oneLetterLeftOut(word, candidate))
      if (!consider(candidate)) return undefined;
  return found;
}

// The verbs a definition is asked with ("what does X mean", "what does X stand for", "define X").
const DEFINITION_VERBS = ['mean', 'means', 'meaning', 'stand', 'stands', 'define'];

/**
 * The verb of a definition a word no lexicon knows was meant to be, one slip away: a letter
 * replaced ("meen", "maen" → "mean"), two neighbouring letters swapped, one added or left out
 * ("defne" → "define"); undefined unless exactly one verb fits. They carry the form of a
 * definition ("wat does ZMP meen"), which the classifier would otherwise guess from the term.
 *
 * @example
 * mistypedDefinitionVerb('meen'); // 'mean'
 */
export function mistypedDefinitionVerb(word: string): string | undefined {
  if (
    word.length < 4 ||
    word.length > 8 ||
    DEFINITION_VERBS.includes(word) ||
    OTHER_LANGUAGE_WORDS.has(word)
  )
    return undefined;
  const fits = DEFINITION_VERBS.filter((verb) => oneSlipApart(word, verb));
  return fits.length === 1 ? fits[0] : undefined;
}

/** True when `a` and `b` differ by one letter replaced, added or left out, or two swapped. */
function oneSlipApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    let first = -1;
    let differences = 0;
    for (let i = 0; i < a.length; i += 1)
      if (a[i] !== b[i]) {
        if (first < 0) first = i;
        differences += 1;
      }
    if (differences === 1) return true;
    return differences === 2 && a[first] === b[first + 1] && a[first + 1] === b[first];
  }
  if (a.length === b.length + 1) return oneLetterLeftOut(b, a);
  if (b.length === a.length + 1) return oneLetterLeftOut(a, b);
  return false;
}

/** True when `longer` is `word` with one letter added somewhere. */
function oneLetterLeftOut(word: string, longer: string): boolean {
  let i = 0;
  while (i < word.length && word[i] === longer[i]) i += 1;
  return word.slice(i) === longer.slice(i + 1);
}

/**
 * Compiles keywords and trains the intent classifier for `agents`: the training samples are every
 * agent's example questions (held out in turn to calibrate) and its keywords (as short samples).
 *
 * @example
 * const model = buildRoutingModel(registry.all(), registry.defaultAgent.name);
 * model.analyze('What is a topic?').cues.intent; // 'definition'
 */
export function buildRoutingModel(
  agents: readonly Agent[],
  defaultAgent: string,
  options: {
    featureWeights?: FeatureWeights;
    smoothing?: number;
    knowledge?: BookKnowledge;
    english?: EnglishDictionary;
    /** A softmax temperature to use instead of fitting one (the folds of a cross-validation). */
    temperature?: number;
    /**
     * The classifier these agents and options trained before (saved with the trained router):
     * used instead of training one. The training samples are then extracted only if a fold asks.
     */
    classifier?: IntentClassifier;
  } = {},
): RoutingModel {
  const weights = options.featureWeights ?? DEFAULT_FEATURE_WEIGHTS;
  const english = options.english ?? englishDictionary();
  const isWord = (word: string) => english.has(word);
  const compiled: CompiledKeywords = compileKeywords(agents);
  const keywordScores = (text: QueryText): Record<string, KeywordMatch> =>
    scoreKeywords(compiled, text, { isWord });
  const knowledge = options.knowledge
    ? compileKnowledge(options.knowledge, agents, english, defaultAgent)
    : undefined;
  const scoresOf = (matches: Record<string, KeywordMatch>) => {
    const scores: Record<string, number> = {};
    for (const agent in matches) scores[agent] = matches[agent]?.score ?? 0;
    return scores;
  };

  const vocabulary: string[] = [];
  const texts = agents.flatMap((agent) =>
    [
      ...agent.examples.map((example, i) => ({ text: example, heldOut: true, scale: 1, i })),
      ...agent.keywords.map((keyword) => ({
        text: keyword,
        heldOut: false,
        scale: KEYWORD_SAMPLE_WEIGHT,
        i: -1,
      })),
    ].map(({ text, ...sample }) => {
      const analyzed = analyzeText(text);
      vocabulary.push(...analyzed.words);
      return { label: agent.name, analyzed, ...sample };
    }),
  );
  // Each sample remembers which example it came from (-1 for a keyword), so the folds of a
  // cross-validation can train without some examples and reuse every feature already extracted.
  // Extracted on first use: a classifier given in `options` needs none until a fold is asked for.
  let samples: Array<TrainingSample & { example: number }> | undefined;
  const trainingSamples = () =>
    (samples ??= texts.map(({ label, analyzed, heldOut, scale, i }) => {
      const features = extractFeatures(
        analyzed,
        detectIntentCues(analyzed.words),
        scoresOf(keywordScores(analyzed)),
        weights,
      );
      if (scale !== 1) for (const [key, value] of features) features.set(key, value * scale);
      return { label, features, heldOut, example: i };
    }));
  // The speller knows the agents' words and the book's; it never touches an English word.
  const lexicon: FuzzyLexicon = createFuzzyLexicon(
    vocabulary,
    knowledge ? Object.entries(knowledge.knowledge.words) : [],
  );
  // The word a query word is read as (itself unless it is a typo): the same in every question, so
  // worked out once per word (bounded; the lexicon and English do not change for this model).
  const readAs = new Map<string, string>();
  const correctionOf = (word: string): string => {
    let corrected = readAs.get(word);
    if (corrected !== undefined) return corrected;
    corrected =
      CHAT_SPELLINGS.get(word) ??
      (lexicon.has(word) || isWord(word)
        ? word
        : word.length < MIN_FUZZY_LENGTH - 1
          ? (mistypedFunctionWord(word) ?? word)
          : (mistypedFunctionWord(word) ?? lexicon.correct(word) ?? word));
    if (readAs.size < CORRECTION_CACHE_LIMIT) readAs.set(word, corrected);
    return corrected;
  };
  // The function word the short word `query[from, to)` (ASCII letters, any case) is a slip of,
  // kept by the word lowercased (bounded, as `readAs`) and found without cutting it out of the
  // question (see LetterRunMemo); false: a word the lexicon or English knows (no lookup); null:
  // looked up, no slip found.
  const functionWords = new LetterRunMemo<string | null | false>(CORRECTION_CACHE_LIMIT);
  const functionWordAt = (query: string, from: number, to: number): string | null | false => {
    let meant = functionWords.get(query, from, to);
    if (meant === undefined) {
      const word = query.slice(from, to).toLowerCase();
      meant =
        CHAT_SPELLINGS.get(word) ??
        (lexicon.has(word) || isWord(word)
          ? false
          : (mistypedFunctionWord(word) ?? mistypedDefinitionVerb(word) ?? null));
      functionWords.set(word, meant);
    }
    return meant;
  };
  const classifier =
    options.classifier ??
    trainIntentClassifier(trainingSamples(), {
      smoothing: options.smoothing,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    });

  const assemble = (classifier: IntentClassifier): RoutingModel => {
    // One record per word (see WordRecord) for this classifier: whether training saw a word
    // depends on it, everything else on the agents and the knowledge.
    const recordOf = wordRecords({
      stem: stemWord,
      keywordTypo: (word, stem) => keywordTypo(compiled, word, stem, isWord),
      keywords: (stem) => compiled.byFirstStem.get(stem),
      keys: keysOf,
      readAs: correctionOf,
      content: isContentWord,
      known: (stem) => classifier.knows(wordKey(stem)),
      bundle: (word) => charGramBundles([word], weights)[0],
      facts: (word, stem) => knowledge?.wordFacts(word, stem),
      // Either speller may look the word up: the agents' and book's words or the keywords'.
      spelled: (word) =>
        word.length >= MIN_FUZZY_LENGTH - 1 &&
        !isWord(word) &&
        !(lexicon.has(word) && compiled.lexicon.has(word)),
    });
    return modelOf(classifier, recordOf);
  };

  const modelOf = (classifier: IntentClassifier, recordOf: RecordOf): RoutingModel => {
    // The query's words, stems and keyword matches, each word's facts from its record.
    const keywordEvidence = (query: string): KeywordEvidence => {
      const words = textWords(query).words;
      // The first FUZZY_WORDS_PER_QUESTION words that need a fuzzy lookup get one; later ones
      // are taken as typed (see FUZZY_WORDS_PER_QUESTION).
      let lookups = 0;
      // Records and stems in one pass (no closure, no second list walk).
      const records: WordRecord[] = [];
      const stems: string[] = [];
      for (const word of words) {
        const record = recordOf(word, lookups < FUZZY_WORDS_PER_QUESTION);
        if (record.spelled) lookups += 1;
        records.push(record);
        stems.push(record.stem);
      }
      const text = { raw: query, words, stems };
      return { text, keywords: scoreKeywords(compiled, text, { known: records }), records };
    };
    return {
      agents,
      defaultAgent,
      classifier,
      ...(knowledge ? { knowledge } : {}),
      keywords: keywordEvidence,
      fold(excluded, temperature) {
        const kept = trainingSamples().filter(
          (sample) => sample.example < 0 || !excluded(sample.label, sample.example),
        );
        return assemble(trainIntentClassifier(kept, { smoothing: options.smoothing, temperature }));
      },
      readQuestionWords(query) {
        // Whole words of 3 to 7 ASCII letters (not part of a longer run of letters, not touching a
        // digit as in "g5xlarge"), scanned by hand: most questions have no slip, and then the
        // question comes back as it is, with no string built.
        let corrections: Array<[string, string]> | undefined;
        let text = '';
        // Words no lexicon knows, each a lookup among the function words: as many as the typo
        // budget of a question (see FUZZY_WORDS_PER_QUESTION), the rest taken as typed.
        let lookups = 0;
        let from = 0;
        let i = 0;
        while (i < query.length) {
          if (!isAsciiLetter(query.charCodeAt(i))) {
            i += 1;
            continue;
          }
          let end = i + 1;
          while (end < query.length && isAsciiLetter(query.charCodeAt(end))) end += 1;
          const length = end - i;
          if (
            length >= 3 &&
            length <= 7 &&
            !isAsciiDigit(query.charCodeAt(i - 1)) &&
            !isAsciiDigit(query.charCodeAt(end)) &&
            // Not an acronym ("TODO").
            hasLowerCase(query, i, end)
          ) {
            const slip = lookups < FUZZY_WORDS_PER_QUESTION ? functionWordAt(query, i, end) : false;
            if (slip !== false) lookups += 1;
            const meant = slip || undefined;
            if (meant !== undefined) {
              // The word as a string only for a slip.
              const typed = query.slice(i, end);
              const word = typed.toLowerCase();
              (corrections ??= []).push([word, meant]);
              text +=
                query.slice(from, i) +
                (typed[0] === word[0] ? meant : meant[0]!.toUpperCase() + meant.slice(1));
              from = end;
            }
          }
          i = end;
        }
        return {
          text: corrections ? text + query.slice(from) : query,
          corrections: corrections ?? [],
        };
      },
      analyze(query, form) {
        // Keywords see the query as typed: the scorer reports its own typo matches ("~capston").
        const evidence = typeof query === 'string' ? keywordEvidence(query) : query;
        const { text: raw, keywords, records: typed } = evidence;
        // Each word as read: its record's `meant` (the record itself unless it is a typo).
        const corrections: Array<[string, string]> = [];
        for (const record of typed)
          if (record.meant !== record) corrections.push([record.word, record.meant.word]);
        // Most questions have no typo: their records are the ones they were typed with.
        const records: readonly WordRecord[] =
          corrections.length > 0 ? typed.map((record) => record.meant) : typed;
        const text =
          corrections.length > 0
            ? {
                raw: raw.raw,
                words: records.map((record) => record.word),
                stems: records.map((record) => record.stem),
              }
            : raw;
        // Words as typed are the query's shared words (textWords), joined there already.
        const cues =
          form && sameWords(form.words, text.words)
            ? form.cues
            : detectIntentCues(text.words, text === raw ? textWords(raw.raw).joined : undefined);
        // The keyword matches as they are: no record of their scores made for each clause.
        const features = extractFeatureList(text, cues, keywords, weights, featureList, records);
        // On topic: a keyword matched, or at least half the content words were seen in training, or
        // it asks to define a term (any term may be in the book, even one no example mentions).
        // Counted in the same pass as the words' n-gram bundles are gathered.
        const bundles: FeatureBundle[] = [];
        let content = 0;
        let known = 0;
        for (const record of records) {
          if (record.bundle) bundles.push(record.bundle);
          if (!record.content) continue;
          content += 1;
          if (record.known) known += 1;
        }
        let matched = false;
        for (const agent in keywords)
          if ((keywords[agent] as KeywordMatch).score > 0) {
            matched = true;
            break;
          }
        const onTopic =
          matched ||
          (content > 0 && known / content >= MIN_KNOWN_SHARE) ||
          (cues.intent === 'definition' && content > 0);
        const grounding = knowledge?.ground(text, records, cues.intent === 'definition');
        const analyzed: AnalyzedQuery = {
          text,
          corrections,
          cues,
          keywords,
          features,
          bundles,
          onTopic,
          records,
        };
        // Set, not spread in (see decide-clause.ts): the same keys in the same order.
        if (grounding) analyzed.grounding = grounding;
        return analyzed;
      },
    };
  };
  return assemble(classifier);
}
