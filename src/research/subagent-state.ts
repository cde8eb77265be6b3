import * as z from 'zod';
import {
  ExtractedCitation,
  Finding,
  VisitedSource,
  type ResearchTask,
  type RetrievalResult,
} from '../schema/index.js';
import type { ResearchDependencies } from './research-dependencies.js';
import type { ResearchEvent, SubagentNodeName, TokenCount } from './research-events.js';
import type { VisitedRegistry } from './visited-registry.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** What a subagent is allowed to read (spec: `isolate_subgraph_state`): nothing more. */
export interface SubagentInput {
  query: string;
  /** Exactly one task: this subagent's own. */
  subagentTasks: [ResearchTask];
  visitedSources: VisitedSource[];
}

/** The subagent graph's working state (spec: SubagentState). */
export interface SubagentState extends SubagentInput {
  taskDescription: string;
  internalResult?: RetrievalResult;
  webResult?: RetrievalResult;
  paperResult?: RetrievalResult;
  subagentFindings: Finding[];
  extractedCitations: ExtractedCitation[];
}

/**
 * What a subagent may return (spec: `subagent_findings`, `visited_sources`,
 * `all_extracted_citations`). Strict: any other field is an isolation violation.
 */
export const SubagentOutput = lazySchema(() =>
  z
    .object({
      subagentFindings: z.array(Finding),
      visitedSources: z.array(VisitedSource),
      allExtractedCitations: z.array(ExtractedCitation),
    })
    .strict(),
);
export type SubagentOutput = z.infer<typeof SubagentOutput>;

/** What the nodes of one subagent share: dependencies, the run's registry, its signal and meters. */
export interface SubagentContext extends ResearchDependencies {
  runId: string;
  taskId: string;
  registry: VisitedRegistry;
  signal: AbortSignal;
  emit: (event: ResearchEvent) => void;
  /** Token use of this subagent, added to by the analysis node. */
  tokens: TokenCount;
  now: () => number;
}

/** A node: reads the state, returns the fields it changes. */
export type SubagentNode = (
  state: SubagentState,
  context: SubagentContext,
) => Promise<Partial<SubagentState>>;

/** The gate: which node runs after retrieval. */
export type SubagentGate = (
  state: SubagentState,
) => Extract<SubagentNodeName, 'analysisNode' | 'webSearchNode'>;

/** The nodes of the subagent graph, replaceable for tests and the bench. */
export interface SubagentNodes {
  retrieveNode: SubagentNode;
  routeSourceNecessity: SubagentGate;
  webSearchNode: SubagentNode;
  analysisNode: SubagentNode;
}
