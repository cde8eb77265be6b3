import type { ChunkRecord } from '../../schema/index.js';
import { chunksWhere } from './chunks-where.js';
import { namesTheWork } from './work-names.js';
import { analyze } from './tokenizer.js';

/** A heading under which a book thanks people: "Acknowledgments", "Acknowledgements", "Thanks". */
const ACKNOWLEDGMENTS_HEADING = /^(?:acknowledge?ments?|thanks|credits)$/i;

/** True for a chunk under an acknowledgments heading of its own ("## Acknowledgments"). */
export function isAcknowledgments(chunk: Pick<ChunkRecord, 'headingPath'>): boolean {
  return ACKNOWLEDGMENTS_HEADING.test(chunk.headingPath.at(-1)?.trim() ?? '');
}

/** The chunks under an acknowledgments heading of their own, in chunk order (empty when none). */
export function acknowledgmentChunks(chunks: readonly ChunkRecord[]): Int32Array {
  return chunksWhere(chunks, isAcknowledgments);
}

const THANKS =
  /\b(?:thank(?:s|ed|ing)?|grateful|gratitude|indebted|acknowledge?(?:s|d|ment|ments)?)\b/;
// Who thanks: the work or the people who wrote it ("Who does the book thank?", "Who are the
// authors grateful to?"), not a reader thanking the assistant ("thanks, that helps").
const BY_THE_AUTHORS = /\b(?:authors?|writers?|editors?|they|we)\b/;

/** The words a book thanks people in, for choosing the sentences that answer such a question. */
export const THANKS_TERMS: readonly string[] = analyze(
  'acknowledge acknowledges acknowledgment acknowledgement thank thanks grateful gratitude',
);

/**
 * True when `query` asks whom the work or its authors thank ("Who does the book thank?", "Who are
 * the authors grateful to?", "Does the textbook acknowledge anyone?"): the book answers under an
 * "Acknowledgments" heading, in words ("acknowledge the contributions of") the question rarely
 * uses. "Thank you, that helps" thanks the assistant and asks nothing.
 */
export function asksWhomTheWorkThanks(query: string): boolean {
  const lower = query.toLowerCase();
  if (!THANKS.test(lower)) return false;
  const words = lower.split(/[^a-z']+/).filter(Boolean);
  return namesTheWork(words) || BY_THE_AUTHORS.test(lower.replace(THANKS, ' '));
}
