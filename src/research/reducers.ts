import type { ExtractedCitation, Finding, VisitedSource } from '../schema/index.js';
import { sourceKey } from './visited-registry.js';

/**
 * Reducer of findings by namespace: a task's findings replace that task's earlier ones (a
 * resumed task), other tasks' findings are kept; the result follows task order.
 */
export function mergeFindings(
  current: readonly Finding[],
  incoming: readonly Finding[],
  order: readonly string[],
): Finding[] {
  const replaced = new Set(incoming.map((finding) => finding.taskId));
  const merged = [...current.filter((finding) => !replaced.has(finding.taskId)), ...incoming];
  const rank = (taskId: string) => {
    const at = order.indexOf(taskId);
    return at < 0 ? order.length : at;
  };
  return merged.sort((a, b) => rank(a.taskId) - rank(b.taskId));
}

/** Reducer of visited sources: union, first record of each source kept. */
export function mergeVisitedSources(
  current: readonly VisitedSource[],
  incoming: readonly VisitedSource[],
): VisitedSource[] {
  const seen = new Map<string, VisitedSource>();
  for (const source of [...current, ...incoming]) {
    const key = sourceKey(source.identifier);
    if (!seen.has(key)) seen.set(key, source);
  }
  return [...seen.values()];
}

/** Reducer of extracted citations: union by source. */
export function mergeExtractedCitations(
  current: readonly ExtractedCitation[],
  incoming: readonly ExtractedCitation[],
): ExtractedCitation[] {
  const seen = new Map<string, ExtractedCitation>();
  for (const citation of [...current, ...incoming]) {
    const key = sourceKey(citation.identifier);
    if (!seen.has(key)) seen.set(key, citation);
  }
  return [...seen.values()];
}
