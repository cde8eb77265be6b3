import type { Citation } from '../schema/index.js';
import { numberSources } from './number-sources.js';

const citationKey = (citation: Citation) =>
  citation.chunkId ?? `${citation.source}#${citation.section ?? ''}`;

/**
 * Merges the citations of several answers into one list: de-duplicated (same passage → one
 * number, its best score kept), numbered in order of first appearance. Returns the merged list
 * and, per answer, how its old numbers map to the new ones.
 *
 * @example
 * const { citations, renumber } = mergeCitations([hardware.sources, capstone.sources]);
 */
export function mergeCitations(parts: readonly (readonly Citation[])[]): {
  citations: Citation[];
  renumber: Map<number, number>[];
} {
  const { sources, renumber } = numberSources(parts, citationKey, (kept, again) => {
    if (again.relevanceScore > kept.relevanceScore) kept.relevanceScore = again.relevanceScore;
  });
  return { citations: sources, renumber };
}
