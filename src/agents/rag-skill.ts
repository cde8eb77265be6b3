import type { Retriever, RetrieveOptions } from '../retrieval/retrievers/retriever.js';
import type { RetrievedChunk } from '../schema/index.js';

/** The RAG skill (spec R4): domain-filtered retrieval with an injected retriever. */
export interface RagSkill {
  readonly name: 'rag';
  readonly description: string;
  retrieve(query: string, options?: RetrieveOptions): Promise<RetrievedChunk[]>;
}

/**
 * Creates the RAG skill over a retriever.
 *
 * @example
 * const rag = createRagSkill(retriever);
 * const chunks = await rag.retrieve('Jetson power draw', { domain: 'hardware', limit: 5 });
 */
export function createRagSkill(retriever: Retriever): RagSkill {
  return {
    name: 'rag',
    description: 'Retrieves passages from the book, filtered to a domain when asked.',
    retrieve: (query, options) => retriever.retrieve(query, options),
  };
}
