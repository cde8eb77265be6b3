import type { AnswerStyle, RetrievedChunk } from '../../schema/index.js';
import { splitSentences } from './sentences.js';

/** A sentence chosen for an extractive answer. */
export interface SelectedSentence {
  text: string;
  /** Index of its chunk in the retrieved list. */
  chunk: number;
  position: number;
  score: number;
  /** A list item or table row, shown as a list line rather than prose. */
  listItem: boolean;
}

/** Options of {@link selectSentences}. */
export interface SelectOptions {
  /** Turns text into comparable terms (stemmed, stopwords removed). */
  terms: (text: string) => string[];
  style: AnswerStyle;
  /** How many sentences at most. */
  max?: number;
  /** Relevance vs novelty trade-off of maximal marginal relevance (1 = relevance only). */
  lambda?: number;
  /**
   * Sentences scoring under this share of the best sentence are left out, and so are chunks
   * scoring under this share of the best chunk: the tail of a ranking rarely answers the question.
   */
  relativeCutoff?: number;
}

const DEFINITION = /\b(is|are|refers to|means|stands for|is defined as|describes?)\b/i;
const SPEC_UNIT =
  /\b\d+(?:\.\d+)?\s*(?:gb|tb|mb|w|watts?|tops|tflops|hz|ghz|mhz|fps|kg|m|cm|mm|v|mah|hours?|h|cores?|%)\b|\$\s?\d|\b(?:rtx|gtx|jetson|orin|ram|vram|cpu|gpu|ubuntu)\b/i;
const GUIDANCE =
  /\b(first|then|next|finally|step|should|must|check|make sure|milestone|phase|week)\b/i;
const EXPLANATION = /\b(because|so that|which|allows?|enables?|works? by|in order to|when)\b/i;

function styleBonus(style: AnswerStyle, text: string, listItem: boolean, position: number): number {
  switch (style) {
    case 'definition':
      return (DEFINITION.test(text.slice(0, 80)) ? 0.35 : 0) + (position === 0 ? 0.1 : 0);
    case 'specs':
      return (SPEC_UNIT.test(text) ? 0.35 : 0) + (listItem ? 0.1 : 0);
    case 'guidance':
      return GUIDANCE.test(text) ? 0.25 : 0;
    case 'explanation':
      return EXPLANATION.test(text) ? 0.2 : 0;
    default:
      return 0;
  }
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Picks the sentences of the retrieved chunks that best answer `query`, with maximal marginal
 * relevance so near-duplicates are not quoted twice, and returns them in reading order (by chunk
 * rank, then position in the chunk).
 *
 * @example
 * const picked = selectSentences('What is a topic?', chunks, { terms, style: 'definition' });
 */
export function selectSentences(
  query: string,
  chunks: readonly RetrievedChunk[],
  options: SelectOptions,
): SelectedSentence[] {
  const max = options.max ?? 4;
  const lambda = options.lambda ?? 0.7;
  const cutoff = options.relativeCutoff ?? 0.6;
  const queryTerms = new Set(options.terms(query));
  const candidates: (SelectedSentence & { terms: Set<string> })[] = [];
  const topChunk = Math.max(0, ...chunks.map((chunk) => chunk.score));
  chunks.forEach((chunk, chunkIndex) => {
    if (chunk.score < cutoff * topChunk) return;
    const headingTerms = new Set(options.terms(chunk.section ?? ''));
    for (const sentence of splitSentences(chunk.text)) {
      const terms = new Set(options.terms(sentence.text));
      if (terms.size === 0) continue;
      let overlap = 0;
      for (const term of queryTerms) if (terms.has(term) || headingTerms.has(term)) overlap++;
      const coverage = queryTerms.size ? overlap / queryTerms.size : 0;
      const length = sentence.text.length;
      const lengthPenalty = length < 25 ? 0.25 : length > 400 ? 0.15 : 0;
      const score =
        0.45 * coverage +
        0.35 * chunk.score +
        styleBonus(options.style, sentence.text, sentence.listItem, sentence.position) -
        lengthPenalty -
        0.02 * sentence.position;
      candidates.push({
        text: sentence.text,
        chunk: chunkIndex,
        position: sentence.position,
        score,
        listItem: sentence.listItem,
        terms,
      });
    }
  });
  const topSentence = Math.max(0, ...candidates.map((c) => c.score));
  for (let i = candidates.length - 1; i >= 0; i--) {
    if ((candidates[i]?.score ?? 0) < cutoff * topSentence) candidates.splice(i, 1);
  }

  const chosen: typeof candidates = [];
  while (chosen.length < max && candidates.length > 0) {
    let best = -1;
    let bestValue = -Infinity;
    candidates.forEach((candidate, i) => {
      const redundancy = Math.max(0, ...chosen.map((c) => jaccard(c.terms, candidate.terms)));
      const value = lambda * candidate.score - (1 - lambda) * redundancy;
      if (redundancy < 0.8 && value > bestValue) {
        bestValue = value;
        best = i;
      }
    });
    if (best < 0) break;
    const [picked] = candidates.splice(best, 1);
    if (picked) chosen.push(picked);
  }
  const ordered = chosen
    .sort((a, b) => a.chunk - b.chunk || a.position - b.position)
    .map(({ text, chunk, position, score, listItem }) => ({
      text,
      chunk,
      position,
      score,
      listItem,
    }));
  // A definition reads best when the defining sentence comes first, whatever its position.
  if (options.style === 'definition' && ordered.length > 1) {
    const lead = ordered.reduce((best, s) => (s.score > best.score ? s : best));
    const rest = ordered.filter((s) => s !== lead);
    return [lead, ...rest];
  }
  return ordered;
}
