import type { RetrievedChunk } from '../../schema/index.js';
import type { RepairedQuery } from '../rank/query-vocabulary.js';

/** Options of one retrieval. */
export interface RetrieveOptions {
  /** Content domain to search first (spec R8); unset searches the whole book. */
  domain?: string;
  /** How many passages to return (default 5). */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * Finds passages for a query. Scores are normalised to 0..1. When a domain filter finds nothing
 * relevant the whole book is searched instead and every returned chunk carries
 * `metadata.domainFallback = true`.
 */
export interface Retriever {
  retrieve(query: string, options?: RetrieveOptions): Promise<RetrievedChunk[]>;
  /**
   * The query with the words the book never uses read in the book's spelling ("midterm" →
   * "mid term", "optimisation" → "optimization"), as `retrieve` reads it; optional for retrievers
   * that do not repair queries.
   */
  readQuery?(query: string): Promise<RepairedQuery>;
  /**
   * The same reading without waiting, from the index already built (routing decides synchronously,
   * on `POST /route`'s hot path): the query as typed until the first retrieval or warm-up builds it.
   */
  readQueryNow?(query: string): RepairedQuery;
  /**
   * What the corpus calls itself on its opening page ("book", "documentation"), for the answers'
   * notices to name it; undefined before the index is built or when the page names itself none.
   */
  workName?(): string | undefined;
  /**
   * True when the corpus's opening page says the work is taught as a course (see
   * `taughtAsCourse`): the assistant then offers to say how the course is organised.
   */
  workIsCourse?(): boolean | undefined;
  /**
   * The next part of a passage's section (`metadata.part` of `parts`), the chunk cut from it where
   * it outgrew a chunk, scored as the passage is; undefined for a last part or a whole section.
   */
  nextPart?(chunk: RetrievedChunk): RetrievedChunk | undefined;
}
