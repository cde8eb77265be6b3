import type { Retriever, RetrieveOptions } from '../retrieval/retrievers/retriever.js';
import type { RepairedQuery } from '../retrieval/index.js';
import { sourceUrl, type SourceLink } from '../citations/index.js';
import type { RetrievedChunk } from '../schema/index.js';
import { inSpan, type TraceSpan } from '../telemetry/index.js';

/** Options of one RAG retrieval: the retriever's, plus the span the retrieval nests under. */
export interface RagRetrieveOptions extends RetrieveOptions {
  span?: TraceSpan | undefined;
}

/** The RAG skill (spec R4): domain-filtered retrieval with an injected retriever. */
export interface RagSkill {
  readonly name: 'rag';
  readonly description: string;
  retrieve(query: string, options?: RagRetrieveOptions): Promise<RetrievedChunk[]>;
  /**
   * The query with the words the book never uses read in the book's spelling (see
   * `Retriever.readQuery`); absent when the retriever does not repair queries.
   */
  readQuery?(query: string): Promise<RepairedQuery>;
  /** The same reading without waiting (see `Retriever.readQueryNow`), for routing alone. */
  readQueryNow?(query: string): RepairedQuery;
  /** What the corpus calls itself (see `Retriever.workName`), for the answers' notices. */
  workName?(): string | undefined;
  /** Whether the work is taught as a course (see `Retriever.workIsCourse`). */
  workIsCourse?(): boolean | undefined;
  /** The next part of a passage's section (see `Retriever.nextPart`). */
  nextPart?(chunk: RetrievedChunk): RetrievedChunk | undefined;
}

/** Options of {@link createRagSkill}. */
export interface RagSkillOptions {
  /**
   * The `sourceUrl` template (`https://book.example.org/{path}`): each passage gets
   * `metadata.url`, its page and section anchor, which citations and the Sources footer show.
   */
  sourceUrl?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A passage with its published URL, from the template and the document's frontmatter link. */
function withUrl(chunk: RetrievedChunk, template: string): RetrievedChunk {
  const link: SourceLink = {};
  const slug = text(chunk.metadata.slug);
  const url = text(chunk.metadata.url);
  if (slug) link.slug = slug;
  if (url) link.url = url;
  const headings = chunk.metadata.headingPath;
  const heading =
    Array.isArray(headings) && headings.length > 1 ? text(headings.at(-1)) : undefined;
  return {
    ...chunk,
    metadata: { ...chunk.metadata, url: sourceUrl(template, chunk.source, link, heading) },
  };
}

/**
 * Creates the RAG skill over a retriever. Each retrieval is a `cohort.retrieval` span (domain,
 * limit, hits, whether the domain fell back to the whole book).
 *
 * @example
 * const rag = createRagSkill(retriever, { sourceUrl: 'https://book.example.org/{path}' });
 * const chunks = await rag.retrieve('Jetson power draw', { domain: 'hardware', limit: 5 });
 */
export function createRagSkill(retriever: Retriever, options: RagSkillOptions = {}): RagSkill {
  const template = options.sourceUrl;
  const readQuery = retriever.readQuery?.bind(retriever);
  const readQueryNow = retriever.readQueryNow?.bind(retriever);
  const workName = retriever.workName?.bind(retriever);
  const workIsCourse = retriever.workIsCourse?.bind(retriever);
  const nextPart = retriever.nextPart?.bind(retriever);
  const nextWithUrl = (chunk: RetrievedChunk) => {
    const next = nextPart?.(chunk);
    return next && template ? withUrl(next, template) : next;
  };
  return {
    ...(readQuery ? { readQuery } : {}),
    ...(readQueryNow ? { readQueryNow } : {}),
    ...(workName ? { workName } : {}),
    ...(workIsCourse ? { workIsCourse } : {}),
    ...(nextPart ? { nextPart: nextWithUrl } : {}),
    name: 'rag',
    description: 'Retrieves passages from the book, filtered to a domain when asked.',
    retrieve: (query, retrieveOptions = {}) => {
      const { span, ...retrieve } = retrieveOptions;
      return inSpan(
        span,
        'cohort.retrieval',
        {
          'cohort.retrieval.domain': retrieve.domain ?? 'all',
          ...(retrieve.limit !== undefined ? { 'cohort.retrieval.limit': retrieve.limit } : {}),
        },
        async (child) => {
          const found = await retriever.retrieve(query, retrieve);
          const chunks = template ? found.map((chunk) => withUrl(chunk, template)) : found;
          child.set({
            'cohort.retrieval.hits': chunks.length,
            'cohort.retrieval.top_score': chunks[0]?.score ?? 0,
            'cohort.retrieval.domain_fallback': chunks.some(
              (chunk) => chunk.metadata.domainFallback === true,
            ),
          });
          return chunks;
        },
      );
    },
  };
}
