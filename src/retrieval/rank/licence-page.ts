import type { ChunkRecord } from '../../schema/index.js';
import { chunksWhere } from './chunks-where.js';

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
  return chunksWhere(chunks, isLicencePage);
}

// Asking leave outright: "am I allowed to", "is that OK", "do I need permission to", "do I have to
// credit".
const ASKS_LEAVE =
  /\b(?:(?:am|are|is)\s+(?:i|we|it|one|that|this)\s+(?:allowed|permitted|permissible|ok|okay|alright|fine|legal)|allowed\s+to|permitted\s+to|permissible|permission|legal(?:ly)?|free\s+to|(?:is|would)\s+(?:it|that)\s+(?:be\s+)?(?:ok|okay|alright|fine|legal|a\s+problem)|licen[cs]e\s+(?:let|allow|permit)s?|(?:have|need)\s+to\s+ask|attribut\w*|credit)\b/;
// "Can I …", "may we …", "can teachers …": leave, or ability; leave only before what is done with
// a copy of the work (below).
const CAN_I =
  /\b(?:can|could|may|might)\s+(?:i|we|one|you|teachers|students|instructors|schools|universities|companies|my\s+\w+|our\s+\w+)\b/;
// What is done with a copy of a work: print it, share it, translate it, sell it, quote it.
const COPY_VERB = String.raw`(?:copy|copying|photocopy|share|sharing|print|printing|sell|selling|distribute|distributing|redistribute|translate|translating|adapt|adapting|modify|modifying|remix|remixing|post|posting|publish|publishing|republish|upload|uploading|host|hosting|mirror|reproduce|repost|fork|put|include|including|embed|quote|quoting)`;
// What is done with a work under leave, or in a work of one's own: "use this material in my
// workshop", not "use the guide's launch file".
const USE_VERB = String.raw`(?:use|using|reuse|re-use|teach|teaching)`;
// The work or a part of it as a reader names it, ending the object: "this book", "a chapter",
// "chapter 3", "figure 3.2" (not "the course textbook's recipe": a possessive names the owner of
// what is asked about).
const WORK_PART = String.raw`(?:book|textbook|course|material|materials|chapter|chapters|diagrams?|figures?|illustrations?|slides|lessons?|guide|manual|docs|documentation)`;
const WORK = String.raw`(?:(?:this|the|your|a|an|its|these|those|some|any|each|every|all|whole)\s+(?:(?:whole|entire|full|course|printed|few|online)\s+)?${WORK_PART}|(?:this|the|your)\s+(?:book|textbook|course|guide)['’]s\s+(?:\w+\s+)?(?:${WORK_PART}|content|text|code)|(?:chapter|week|module|figure|fig\.?)\s+\d+(?:\.\d+)?)(?![\w'’])(?!\s+\w+['’]s\b)`;
// A piece of the work: "copies of the textbook", "a paragraph from the book", "the PDF of this guide",
// and in a reader's looser words "stuff from the book", "bits of the course", "pictures from it".
const PIECE = String.raw`(?:(?:a|an|the|some|any|few|printed|modified|translated|paper|digital)\s+)*(?:copies|versions?|parts?|paragraphs?|pages?|excerpts?|sections?|passages?|figures?|diagrams?|illustrations?|pictures?|images?|examples?|pdf|content|contents|text|stuff|things|bits|pieces|material|materials)\s+(?:of|from|in)\s+`;
const COPIES_THE_WORK = new RegExp(String.raw`\b${COPY_VERB}\s+(?:${PIECE})?${WORK}`);
const USES_THE_WORK = new RegExp(String.raw`\b${USE_VERB}\s+(?:${PIECE})?${WORK}`);
// Where a used copy goes: "… in my slides", "… for our workshop", "… commercially".
const IN_A_WORK_OF_ONES_OWN =
  /\b(?:(?:in|for|on|at)\s+(?:my|our|a|an|their)\s+(?:\w+\s+)?(?:slides|thesis|paper|lecture|lectures|class|classes|classroom|classrooms|course|workshop|presentation|blog|website|book|training|company)|commercially|for\s+profit)\b/;

/**
 * True when `query` asks leave to do something with the work or a part of it, the work being what
 * is copied, shared, translated or used ("Can I translate a chapter into Spanish and put it on my
 * blog?", "Am I allowed to use this material in a paid workshop?"): its licence page answers,
 * whatever the question says of where the copy goes ("blog", "Spanish", "company"), words the book
 * need not use anywhere else. "Can I modify the launch file from chapter 5?" and "Am I allowed to
 * copy answers during the course exam?" do something to another thing.
 */
export function asksLeaveToUseTheWork(query: string): boolean {
  const lower = query.toLowerCase();
  if (COPIES_THE_WORK.test(lower)) return ASKS_LEAVE.test(lower) || CAN_I.test(lower);
  if (USES_THE_WORK.test(lower))
    return ASKS_LEAVE.test(lower) || (CAN_I.test(lower) && IN_A_WORK_OF_ONES_OWN.test(lower));
  return false;
}
