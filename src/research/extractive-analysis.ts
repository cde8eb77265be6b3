import type { AnalysisCitation } from '../schema/index.js';
import type { NumberedSource } from './format-context.js';

/** Sentences an extractive finding quotes. */
export const EXTRACTIVE_SENTENCES = 3;

const STOPWORDS = new Set(
  'a about an and are as at be by can do does for from has have how in into is it its of on or that the their there these this to was what when where which who why will with'.split(
    ' ',
  ),
);

/** The meaningful words of a text, lower-cased. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 2 && !STOPWORDS.has(word),
  );
}

/** Splits a passage into sentences, dropping headings, fences and fragments. */
export function sentences(text: string): string[] {
  return (
    text
      .replace(/```[\s\S]*?```/g, ' ')
      .split(/\n+/)
      .filter((line) => !/^\s*(#|\||-{3,})/.test(line))
      .join(' ')
      .split(/(?<=[.!?])\s+(?=[A-Z0-9"(])/)
      .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
      // A question is not a finding: example questions would otherwise match the task best.
      .filter(
        (sentence) => sentence.length >= 30 && sentence.length <= 600 && !sentence.includes('?'),
      )
  );
}

/**
 * Extractive findings for when no model is configured (or the model failed): the sentences of the
 * sources that share the most words with the task, each cited with its source's `[n]`.
 *
 * @example
 * const { summary, citations } = extractiveAnalysis('How do humanoids balance?', sources);
 */
export function extractiveAnalysis(
  task: string,
  sources: readonly NumberedSource[],
  limit = EXTRACTIVE_SENTENCES,
): { summary: string; citations: AnalysisCitation[] } {
  const wanted = new Set(terms(task));
  const scored = sources.flatMap((source, order) =>
    sentences(source.content).map((sentence, position) => {
      const words = new Set(terms(sentence));
      let overlap = 0;
      for (const word of wanted) if (words.has(word)) overlap++;
      // Earlier sources ranked higher by their search; earlier sentences tend to state the point.
      const score = overlap + (source.score ?? 0) * 0.5 - order * 0.01 - position * 0.001;
      return { sentence, source, score, overlap };
    }),
  );
  scored.sort((a, b) => b.score - a.score);
  const picked: typeof scored = [];
  const perSource = new Map<number, number>();
  for (const candidate of scored) {
    if (picked.length >= limit) break;
    if (picked.length > 0 && candidate.overlap === 0) break;
    const used = perSource.get(candidate.source.index) ?? 0;
    if (used >= 2) continue;
    perSource.set(candidate.source.index, used + 1);
    picked.push(candidate);
  }
  if (picked.length === 0) {
    const first = sources[0];
    if (!first) return { summary: 'No sources were found for this task.', citations: [] };
    const text = first.content.replace(/\s+/g, ' ').trim().slice(0, 300);
    return { summary: `${text} [${first.index}]`, citations: [{ index: first.index }] };
  }
  return {
    summary: picked.map((item) => `${item.sentence} [${item.source.index}]`).join(' '),
    citations: [...new Set(picked.map((item) => item.source.index))].map((index) => ({ index })),
  };
}
