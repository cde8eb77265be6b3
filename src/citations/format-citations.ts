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
    text: chunk.text,
    ...(chunk.id ? { chunkId: chunk.id } : {}),
  }));
}

/** The passage a citation points at, for a reader who opens it. */
export function extractSourceText(citation: Citation): string {
  return citation.text ?? '';
}

/** Where a citation points: source path and section. */
export function citationLocation(citation: Pick<Citation, 'source' | 'section'>): string {
  return citation.section ? `${citation.source} § ${citation.section}` : citation.source;
}

/**
 * The Sources footer of rag spec §3: a rule, a bold heading, one line per citation with source
 * path, section and score.
 *
 * @example
 * answer + formatSourcesFooter(citations)
 */
export function formatSourcesFooter(citations: readonly Citation[]): string {
  if (citations.length === 0) return '';
  const lines = citations.map(
    (c) => `[${c.index}] ${citationLocation(c)} (score: ${c.relevanceScore.toFixed(2)})`,
  );
  return `\n\n---\n**Sources:**\n${lines.join('\n')}`;
}

/** The `[n]` markers used in a text, in order of first use. */
export function citationMarkers(text: string): number[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) seen.add(Number(match[1]));
  return [...seen];
}

function round(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
