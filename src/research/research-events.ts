import type { Finding, ResearchResult, ResearchTask, TaskStatus } from '../schema/index.js';

/** The nodes of a research subagent, with the spec's names. */
export type SubagentNodeName =
  'retrieveNode' | 'routeSourceNecessity' | 'webSearchNode' | 'analysisNode';

/** Token use of a subagent so far. */
export interface TokenCount {
  input: number;
  output: number;
  total: number;
}

/**
 * What a research run reports as it goes, in order: `run_started`, then per task
 * `task_started`, `node` events and `task_finished`, and last `report` with the result.
 */
export type ResearchEvent =
  | {
      type: 'run_started';
      runId: string;
      question: string;
      tasks: ResearchTask[];
      /** Tasks already finished in an earlier attempt (resume), not run again. */
      skippedTaskIds: string[];
    }
  | { type: 'task_started'; runId: string; taskId: string; task: string }
  | {
      type: 'node';
      runId: string;
      taskId: string;
      node: SubagentNodeName;
      status: 'started' | 'finished';
      durationMs?: number;
      /** Sources the node added (retrieval, search). */
      sources?: number;
      /** For the gate: the node it chose. */
      next?: SubagentNodeName;
      /** Why a node's result is empty or degraded. */
      reason?: string;
      tokens?: TokenCount;
    }
  | {
      type: 'task_finished';
      runId: string;
      taskId: string;
      status: TaskStatus;
      sources: number;
      durationMs: number;
      tokens: TokenCount;
      finding: Finding;
    }
  | { type: 'report'; runId: string; result: ResearchResult };

/** Receives research events (the CLI's live view, the server's SSE stream). */
export type ResearchEventHandler = (event: ResearchEvent) => void;
