import type { ChunkRecord } from '../../schema/index.js';
import { CARDINAL_NUMBERS, ORDINAL_NUMBERS } from './number-words.js';

/**
 * Share of the query's best attainable score a section gets when its own heading is the numbered
 * one a question asks for ("Week 10" for "What topics are covered in Week 10?"): the number is one
 * weak word of the question, and a week whose text says "topics" more often won over it.
 */
export const NUMBERED_HEADING_SHARE = 0.3;

/** Fewest distinct numbers a heading word takes for its headings to be read as a numbered series. */
const MIN_SERIES = 3;

/**
 * A heading that opens with a word and its number ("Week 10: NVIDIA Isaac Platform", "Phase 3:
 * Autonomy", "LO4: Simulation …") or holds one in brackets ("Final Assessment (Week 13)",
 * "Mid-term Evaluation (Week 6-7)"). A number with a decimal point is a version ("Ubuntu 22.04").
 */
const NUMBERED_HEADING =
  /(?:^|\()([A-Za-z][A-Za-z-]*) ?(\d{1,2})(?:\s*[-–]\s*(\d{1,2}))?(?![\d.]*\d)(?![A-Za-z_])/;

/** Stands for the series' highest number: "the last week", "the final phase". */
const LAST = new Set(['last', 'final']);

/** The sections of a corpus numbered in series, by the series' word (lower case) and number. */
export interface NumberedHeadings {
  /** Series word → number → the chunks whose own heading has that number (a range: each). */
  series: ReadonlyMap<string, ReadonlyMap<number, readonly number[]>>;
}

/**
 * The numbered series of the corpus's headings: a word that numbers the own headings (the last
 * of the heading path) of sections with at least {@link MIN_SERIES} different numbers ("Week 1" to
 * "Week 13", "Phase 1" to "Phase 4", "LO1" to "LO5", a tutorial's "Step 1" to "Step 3"). "ROS 2"
 * and "ROS 1" open headings too, but two numbers are a name's versions, not a series. Reads the
 * heading paths only, never a chunk's text.
 */
export function numberedHeadings(chunks: readonly ChunkRecord[]): NumberedHeadings {
  const series = new Map<string, Map<number, number[]>>();
  chunks.forEach((chunk, doc) => {
    const match = NUMBERED_HEADING.exec(chunk.headingPath.at(-1) ?? '');
    if (!match) return;
    const word = (match[1] as string).toLowerCase();
    const from = Number(match[2]);
    const to = match[3] === undefined ? from : Number(match[3]);
    if (to < from || to - from > 3) return;
    const numbers = series.get(word) ?? series.set(word, new Map()).get(word)!;
    for (let n = from; n <= to; n++) {
      const docs = numbers.get(n);
      if (docs) docs.push(doc);
      else numbers.set(n, [doc]);
    }
  });
  for (const [word, numbers] of series) if (numbers.size < MIN_SERIES) series.delete(word);
  return { series };
}

/** A query word, lower case, where it sits among the query's words. */
const WORDS = /[a-z]+|\d+/g;

/**
 * The chunks a question names by number in one of the corpus's series: "Week 10", "week ten",
 * "the third week", "the very last week", "LO4", and, through `synonyms` (WordNet's), "the third
 * stage" for "Phase 3". Ordinals and "last" count only after "the" ("the last week of the course",
 * not "what did we cover last week"). Empty when the corpus numbers nothing or the question
 * names no number of a series.
 *
 * @example
 * chunksNumbered(numberedHeadings(chunks), 'What topics are covered in Week 10?'); // Week 10's
 */
export function chunksNumbered(
  headings: NumberedHeadings,
  query: string,
  synonyms: (word: string) => readonly string[] | undefined = () => undefined,
): number[] {
  if (headings.series.size === 0) return [];
  const words =
    query
      .toLowerCase()
      .replace(/\b([a-z]+)(\d{1,2})\b/g, '$1 $2')
      .match(WORDS) ?? [];
  const seriesOf = (word: string | undefined) => {
    if (word === undefined || /^\d/.test(word)) return undefined;
    const singular = word.endsWith('s') ? word.slice(0, -1) : word;
    for (const form of [word, singular]) if (headings.series.has(form)) return form;
    // "stage" for the book's "Phase": one of the word's synonyms that the corpus numbers.
    return (synonyms(singular) ?? []).find((synonym) => headings.series.has(synonym));
  };
  const found = new Set<number>();
  const add = (series: string, n: number | 'last') => {
    const numbers = headings.series.get(series);
    if (!numbers) return;
    const at = n === 'last' ? Math.max(...numbers.keys()) : n;
    for (const doc of numbers.get(at) ?? []) found.add(doc);
  };
  words.forEach((word, i) => {
    const next = words[i + 1];
    // "Week 10", "week ten".
    const number = /^\d+$/.test(next ?? '') ? Number(next) : CARDINAL_NUMBERS.get(next ?? '');
    if (number !== undefined) {
      const series = seriesOf(word);
      if (series) add(series, number);
      return;
    }
    // "the third week", "the very last week".
    const ordinal = ORDINAL_NUMBERS.get(word) ?? (LAST.has(word) ? ('last' as const) : undefined);
    if (ordinal === undefined) return;
    const before = words[i - 1] === 'very' ? words[i - 2] : words[i - 1];
    if (before !== 'the') return;
    const series = seriesOf(next);
    if (series) add(series, ordinal);
  });
  return [...found];
}
