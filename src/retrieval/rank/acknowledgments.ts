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

// "Credit" is also the licence's word ("give appropriate credit"): it asks whom the work thanks
// only asked as "who …" or "which people …" ("Which people does the book credit?"), and not of
// what a reader must do ("Who should I credit if I reuse a figure?").
const CREDIT = /\bcredit(?:s|ed|ing)?\b/;
const ASKS_WHICH_PEOPLE =
  /\b(?:who|whom|which\s+(?:people|persons|individuals|contributors|researchers|organi[sz]ations|institutions|groups))\b/;
const READER_CREDITS = /\b(?:i|me|my|you|your|should|must|need\s+to|have\s+to|has\s+to)\b/;

/**
 * True when `query` asks whom the work or its authors thank ("Who does the book thank?", "Who are
 * the authors grateful to?", "Does the textbook acknowledge anyone?", "Which people does the book
 * credit?"): the book answers under an "Acknowledgments" heading, in words ("acknowledge the
 * contributions of") the question rarely uses. "Thank you, that helps" thanks the assistant and
 * asks nothing; "How do I credit the book?" asks what the licence requires.
 */
export function asksWhomTheWorkThanks(query: string): boolean {
  const lower = query.toLowerCase();
  const thanks = THANKS.test(lower);
  if (!thanks && !asksWhomTheWorkCredits(lower)) return false;
  const words = lower.split(/[^a-z']+/).filter(Boolean);
  return namesTheWork(words) || BY_THE_AUTHORS.test(lower.replace(thanks ? THANKS : CREDIT, ' '));
}

/** True when lower-case `lower` asks who is credited, not how a reader credits. */
function asksWhomTheWorkCredits(lower: string): boolean {
  return CREDIT.test(lower) && ASKS_WHICH_PEOPLE.test(lower) && !READER_CREDITS.test(lower);
}

/**
 * `query` with "credit" read as the thanks it asks about when it asks whom the work thanks ("Who
 * does the book credit?" → "Who does the book thank?"): the licence's "give appropriate credit"
 * shares the word, not the answer.
 */
export function creditReadAsThanks(query: string): string {
  return asksWhomTheWorkThanks(query) ? query.replace(/\bcredit(?:s|ed|ing)?\b/gi, 'thank') : query;
}
