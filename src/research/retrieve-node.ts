import type { RetrievedChunk, SourceDocument } from '../schema/index.js';
import { settleBounded } from '../bounded-call/index.js';
import type { SubagentNode } from './subagent-state.js';
import { visited } from './visited-registry.js';

/** Passages an internal retrieval keeps per task. */
export const INTERNAL_SOURCE_LIMIT = 5;
/** Below this normalised score a passage does not count (config `retrieval.minScore` overrides). */
export const DEFAULT_INTERNAL_MIN_SCORE = 0.1;

/** The identifier of an internal passage: its chunk id, or source and section when it has none. */
export function internalIdentifier(chunk: RetrievedChunk): string {
  return chunk.id ?? `${chunk.source}#${chunk.section ?? chunk.title}`;
}

/** A retrieved passage as a citable internal source. */
export function chunkToSource(chunk: RetrievedChunk): SourceDocument {
  return {
    identifier: internalIdentifier(chunk),
    sourceType: 'internal',
    title: chunk.title,
    content: chunk.text,
    url: chunk.source,
    ...(chunk.section ? { section: chunk.section } : {}),
    score: chunk.score,
  };
}

/**
 * retrieve_node: searches the internal knowledge base for the task, bounded by
 * `research.timeoutRetrieval`, keeping relevant passages no subagent has visited yet. A timeout
 * or failure gives an empty result with the reason.
 *
 * @example
 * const update = await retrieveNode(state, context); // { internalResult, visitedSources }
 */
export const retrieveNode: SubagentNode = async (state, context) => {
  const retriever = context.retriever;
  if (!retriever) {
    return { internalResult: { sources: [], reason: 'no internal knowledge base is configured' } };
  }
  const timed = await settleBounded(
    (signal) =>
      retriever.retrieve(state.taskDescription, { limit: INTERNAL_SOURCE_LIMIT * 2, signal }),
    {
      timeoutMs: context.settings.timeoutRetrieval * 1000,
      signal: context.signal,
      what: 'retrieval',
    },
  );
  if (!timed.ok) return { internalResult: { sources: [], reason: timed.message } };
  const minScore = context.internalMinScore ?? DEFAULT_INTERNAL_MIN_SCORE;
  const sources: SourceDocument[] = [];
  let skipped = 0;
  for (const chunk of timed.value) {
    if (sources.length >= INTERNAL_SOURCE_LIMIT) break;
    if (chunk.score < minScore) continue;
    const source = chunkToSource(chunk);
    if (!context.registry.claim(source)) {
      skipped++;
      continue;
    }
    sources.push(source);
  }
  const reason =
    sources.length > 0
      ? undefined
      : skipped > 0
        ? `all ${skipped} relevant internal passages were already visited`
        : 'no relevant internal passage';
  return {
    internalResult: { sources, ...(reason ? { reason } : {}) },
    visitedSources: [
      ...state.visitedSources,
      ...sources.map((source) => visited(source.identifier, 'internal')),
    ],
  };
};
