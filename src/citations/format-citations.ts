import type { Citation, RetrievedChunk } from '../schema/index.js';

/**
 * Numbers retrieved chunks as citations `[1]`, `[2]`… in the order received (rag spec §3).
 *
 * @example
 * const citations = formatCitations(chunks); // citations[0].index === 1
 */
export function formatCitations(chunks: readonly RetrievedChunk[]): Citation[] {
  return chunks.map((chunk, i) => ({
    index: i + 1,
    source: chunk.source,
    title: chunk.title,
    ...(chunk.section ? { section: chunk.section } : {}),
    relevanceScore: round(chunk.score),
    ...(typeof chunk.metadata.url === 'string' ? { url: chunk.metadata.url } : {}),
    text: chunk.text,
    ...(chunk.id ? { chunkId: chunk.id } : {}),
  }));
}

/** The passage a citation points at, for a reader who opens it. */
export function extractSourceText(citation: Citation): string {
  return citation.text ?? '';
}

/** Where a citation points: its published URL when there is one, else source path and section. */
export function citationLocation(citation: Pick<Citation, 'source' | 'section' | 'url'>): string {
  if (citation.url) return citation.url;
  return citation.section ? `${citation.source} § ${citation.section}` : citation.source;
}

function round(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
