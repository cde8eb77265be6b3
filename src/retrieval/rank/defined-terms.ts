import type { ChunkRecord } from '../../schema/index.js';
import type { LexicalIndex } from './lexical-index.js';
import { analyze } from './tokenizer.js';

/**
 * A definition written as a bold lead ("- **Topics**: Named buses over which nodes exchange
 * messages", "**URDF** — the robot description format"): a list item or line that opens with a
 * bold term followed by a colon or a dash. Textbooks define several terms in one such list, so the
 * section is long and names each term once, and plain BM25 ranks it below sections that merely
 * mention the term often.
 */
const BOLD_LEAD =
  /^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?\*\*([^*\n]{1,60}?)\*\*[ \t]*(?::|\u2013|\u2014|-[ \t])/gm;

/**
 * Defined-term bonus: this share of the idf of a bold-lead term whose words all occur in the query
 * (0.2–0.5 measured alike on the dev and tune sets).
 */
export const DEFINED_TERM_WEIGHT = 0.3;

/**
 * A defined term earns the bonus only when its idf is at least this share of the query's: it is
 * what the question asks about ("What is a ROS 2 topic?"), not one word of a long question that
 * happens to be defined somewhere ("…fooled by real cameras later?").
 */
export const MIN_QUERY_SHARE = 0.4;

/** The stemmed terms each bold-lead definition in `text` defines (one entry per definition). */
export function boldLeadTerms(text: string): string[][] {
  const terms: string[][] = [];
  for (const match of text.matchAll(BOLD_LEAD)) {
    const stems = [...new Set(analyze(match[1] ?? ''))];
    if (stems.length > 0) terms.push(stems);
  }
  return terms;
}

/** Which chunks define which terms, and the bonus a query earns on each. */
export interface DefinedTermIndex {
  /**
   * The bonus weight (before {@link DEFINED_TERM_WEIGHT}) of every chunk (that `mask` allows)
   * defining a term all of whose words are among the query's `terms`, by chunk number. `sides`:
   * the stems of each side a comparison asks about (see `comparedSides`).
   */
  bonuses(
    terms: ReadonlyMap<string, number>,
    index: LexicalIndex,
    mask: Uint8Array | undefined,
    sides?: readonly (readonly string[])[],
  ): Map<number, number>;
  /**
   * Adds to `scores` the bonus of every chunk (that `mask` allows) defining a term all of whose
   * words are among the query's `terms`; returns the chunks that had no score before.
   */
  addBonus(
    terms: ReadonlyMap<string, number>,
    scores: Float64Array,
    index: LexicalIndex,
    mask: Uint8Array | undefined,
  ): number[];
}

// "What is URDF?", "About Topics": a heading that asks or announces, around the term it names.
const HEADING_ASKS = /^(?:what\s+(?:is|are)\s+(?:an?\s+|the\s+)?|about\s+)/i;
// "Many of …", "some of …": a part of a set is the subject, not the term the set is named after.
const PARTITIVE =
  /^(?:many|most|some|several|few|all|none|each|any|one|two|three|both|either|neither|much|part)\s+of\b/i;
// The heading under which a page introduces its subject.
const OVERVIEW_HEADING = /^(?:overview|introduction|background|about|description|definition)$/i;
// Lines that are no prose: list items, tables, quotes, headings, code fences, directives.
const NOT_PROSE = /^(?:[-*+|#>]|\d+[.)]\s|```|~~~|\.\.|:)/;
/** "Topics are …", "A node is …", "URDF (Unified Robot Description Format) is …". */
const DEFINING_START =
  /^(?:(?:a|an|the)\s+)?(.{1,80}?)\s+(?:is|are|refers?\s+to|means|stands\s+for|describes?)\b/i;

/**
 * The stems of the term a section defines under its own heading: a heading of at most four words
 * ("Topics", "What is URDF?") whose passage opens with a sentence making it the subject ("Topics
 * are one of the three primary styles of interfaces…"). Reference docs define their terms so, not
 * in bold leads: over a textbook and the ROS 2 docs together, "What is a ROS 2 topic?" ranked
 * ten tutorial steps that say "ros2 topic" above the page that defines topics.
 */
export function headingDefinedTerm(chunk: Pick<ChunkRecord, 'headingPath' | 'title' | 'text'>) {
  const opening = chunk.text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.length > 0 && !NOT_PROSE.test(line));
  const subject = opening ? DEFINING_START.exec(opening)?.[1] : undefined;
  // "Many of the tf2 tutorials are …" says something of some tutorials, not what tf2 is.
  if (subject === undefined || PARTITIVE.test(subject)) return undefined;
  const named = new Set(analyze(subject));
  const own = chunk.headingPath.at(-1) ?? chunk.title;
  // The section's own heading ("Topics"), or the page's title over its overview ("Tf2 > Overview").
  const overview = chunk.headingPath.length === 2 && OVERVIEW_HEADING.test(own.trim());
  for (const written of overview ? [own, chunk.title] : [own]) {
    const stems = termOfHeading(written);
    if (stems && stems.every((stem) => named.has(stem))) return stems;
  }
  return undefined;
}

/** The stems of the term a heading names: at most four words, without "What is" or "About". */
function termOfHeading(written: string): string[] | undefined {
  const heading = written
    .replace(HEADING_ASKS, '')
    .replace(/[?:]+\s*$/, '')
    .trim();
  if (!heading || heading.split(/\s+/).length > 4) return undefined;
  const stems = [...new Set(analyze(heading))];
  return stems.length > 0 ? stems : undefined;
}

/** The longest page title read as the name of what the page is about ("Discovery", "Domain ID"). */
export const MAX_TITLE_TERM_WORDS = 3;

/**
 * The stems of a short page title, for the page's opening section: a page titled "Discovery" is
 * about discovery, and opens by saying what it is ("Discovery of nodes happens automatically…"),
 * though not as "X is …". Over the ROS 2 docs, "How does node discovery work in ROS 2?" ranked
 * ten sections of two Discovery Server tutorials above that page, whose one section names
 * "discovery" less often than they do.
 */
export function openingTitleTerm(chunk: Pick<ChunkRecord, 'ord' | 'title'>) {
  const title = chunk.title.trim();
  if (chunk.ord !== 0 || !title || title.split(/\s+/).length > MAX_TITLE_TERM_WORDS)
    return undefined;
  const stems = [...new Set(analyze(title))];
  return stems.length > 0 ? stems : undefined;
}

/** One bold-lead definition: the chunk it is in and the stems of the term it defines. */
export interface DefinedTerm {
  doc: number;
  stems: string[];
}

/**
 * Every bold-lead definition of `chunks` (see {@link boldLeadTerms}), every term a section
 * defines under its own heading ({@link headingDefinedTerm}) and every short page title its opening
 * section introduces ({@link openingTitleTerm}), in chunk order: what
 * {@link definedTermIndex} is built from, read from the text once and saved with the lexical index.
 */
export function findDefinedTerms(chunks: readonly ChunkRecord[]): DefinedTerm[] {
  const found: DefinedTerm[] = [];
  chunks.forEach((chunk, doc) => {
    for (const stems of boldLeadTerms(chunk.text)) found.push({ doc, stems });
    const defined = headingDefinedTerm(chunk);
    if (defined) found.push({ doc, stems: defined });
    const titled = openingTitleTerm(chunk);
    if (titled) found.push({ doc, stems: titled });
  });
  return found;
}

/**
 * Indexes the bold-lead definitions of `chunks` (see {@link boldLeadTerms}), or the definitions
 * {@link findDefinedTerms} found in them.
 *
 * @example
 * const defined = definedTermIndex(chunks);
 * defined.addBonus(queryTerms, scores, index, undefined); // "What is a ROS 2 topic?" lifts "**Topics**: Named buses…"
 */
export function definedTermIndex(
  source: readonly ChunkRecord[] | { definitions: readonly DefinedTerm[] },
): DefinedTermIndex {
  const definitions = 'definitions' in source ? source.definitions : findDefinedTerms(source);
  // First stem of each defined term → (chunk, all its stems).
  const byStem = new Map<string, Array<{ doc: number; stems: string[] }>>();
  for (const { doc, stems } of definitions) {
    const key = stems[0]!;
    let entries = byStem.get(key);
    if (!entries) byStem.set(key, (entries = []));
    entries.push({ doc, stems });
  }
  const bonuses: DefinedTermIndex['bonuses'] = (terms, index, mask, sides = []) => {
    const bonus = new Map<number, number>();
    // The query's best attainable weight: a defined term must be the bulk of what it asks about.
    const weightOf = (stems: Iterable<string>) => {
      let sum = 0;
      for (const stem of stems) sum += (terms.get(stem) ?? 0) * index.idf(stem);
      return sum;
    };
    const total = weightOf(terms.keys());
    // Each side's weight once per question, not once per definition tried against it.
    const sideTotals = sides.map((side) => weightOf(new Set(side)));
    // In a comparison each side is asked about: a term is the bulk of the question, or of a side
    // that holds it ("services" of "the difference between services and actions").
    const bulk = (stems: readonly string[], weight: number) =>
      weight >= MIN_QUERY_SHARE * total ||
      sides.some(
        (side, i) =>
          stems.every((stem) => side.includes(stem)) &&
          weight >= MIN_QUERY_SHARE * (sideTotals[i] as number),
      );
    for (const term of terms.keys()) {
      for (const { doc, stems } of byStem.get(term) ?? []) {
        if (mask && mask[doc] === 0) continue;
        if (!stems.every((stem) => terms.has(stem))) continue;
        const weight = stems.reduce((sum, stem) => sum + index.idf(stem), 0);
        if (!bulk(stems, weight)) continue;
        // One bonus per chunk: its best-matching definition, not one per list item.
        bonus.set(doc, Math.max(bonus.get(doc) ?? 0, weight));
      }
    }
    return bonus;
  };
  return {
    bonuses,
    addBonus(terms, scores, index, mask) {
      const fresh: number[] = [];
      for (const [doc, weight] of bonuses(terms, index, mask)) {
        if (scores[doc] === 0) fresh.push(doc);
        scores[doc] = (scores[doc] as number) + DEFINED_TERM_WEIGHT * weight;
      }
      return fresh;
    },
  };
}
