import type { ChunkRecord } from '../../schema/index.js';

/**
 * File names of the page where a book, a manual or a docs site says how it may be used:
 * `license.md`, `LICENCE`, `COPYING.md`, `copyright.rst`, `terms-of-use.md`.
 */
const LICENCE_FILE = /^(?:licen[cs]es?|copying|copyright|terms(?:[-_ ]of[-_ ]use)?)(?:[-_.].*)?$/i;

/** A document title that names the page's licence ("License", "Copyright and licence"). */
const LICENCE_TITLE = /\b(?:licen[cs]e|licen[cs]ing|copyright|terms of use)\b/i;

/**
 * True for a chunk of the corpus's licence page: a document named as one ({@link LICENCE_FILE}),
 * or one whose title names its licence. A section of another page that mentions a licence
 * ("Third-party licences" in a hardware chapter) is not the page.
 */
export function isLicencePage(chunk: Pick<ChunkRecord, 'source' | 'title'>): boolean {
  const name = chunk.source.split(/[\\/]/).pop() ?? '';
  return LICENCE_FILE.test(name) || LICENCE_TITLE.test(chunk.title);
}

/** The chunks of the corpus's licence page, in chunk order (empty when it has none). */
export function licencePageChunks(chunks: readonly ChunkRecord[]): Int32Array {
  const docs: number[] = [];
  chunks.forEach((chunk, doc) => {
    if (isLicencePage(chunk)) docs.push(doc);
  });
  return Int32Array.from(docs);
}

// Asking leave outright: "am I allowed to", "is it OK to", "do I need permission to".
const ASKS_LEAVE =
  /\b(?:(?:am|are|is)\s+(?:i|we|it|one)\s+(?:allowed|permitted|ok|okay|alright|fine|legal)|allowed\s+to|permitted\s+to|permission|legal(?:ly)?|free\s+to|(?:is|would)\s+it\s+(?:ok|okay|alright|fine|legal|a\s+problem))\b/;
// "Can I …", "may we …": leave, or ability; leave only before what is done with a copy (below).
const CAN_I = /\b(?:can|could|may|might)\s+(?:i|we|one|my\s+\w+|our\s+\w+)\b/;
// What is done with a copy of a work: print it, share it, translate it, sell it.
const COPIES =
  /\b(?:copy|copying|share|sharing|print|printing|sell|selling|distribute|distributing|redistribute|translate|translating|adapt|adapting|modify|modifying|remix|remixing|post|posting|publish|publishing|republish|upload|uploading|host|hosting|mirror|reproduce|repost|fork)\b/;
// What is done with a work under leave only: "am I allowed to use…", not "can I use it to…".
const USES = /\b(?:use|using|reuse|re-use|include|including|embed|quote|quoting|teach|teaching)\b/;
// The work or a part of it, as a reader names it (not "an image" or "a message": a robot
// publishes those).
const PART_OF_THE_WORK =
  /\b(?:(?:this|the|your|a|its|these|those|some|any|each|every)\s+(?:\w+\s+)?(?:book|textbook|course|material|materials|chapter|chapters|content|contents|diagrams?|figures?|illustrations?|slides|lessons?|guide|manual|docs|documentation)|(?:chapter|week|module)\s+\d+)\b/;

/**
 * True when `query` asks leave to do something with the work or a part of it ("Can I translate a
 * chapter into Spanish and put it on my blog?", "Am I allowed to use this material in a paid
 * workshop?"): its licence page answers, whatever the question says of where the copy goes
 * ("blog", "Spanish", "company"), words the book need not use anywhere else.
 */
export function asksLeaveToUseTheWork(query: string): boolean {
  const lower = query.toLowerCase();
  if (!PART_OF_THE_WORK.test(lower)) return false;
  if (ASKS_LEAVE.test(lower)) return COPIES.test(lower) || USES.test(lower);
  return CAN_I.test(lower) && COPIES.test(lower);
}
