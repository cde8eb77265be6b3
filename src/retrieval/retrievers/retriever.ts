import type { RetrievedChunk } from '../../schema/index.js';

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
}
