import type {
  ExtractedCitation,
  Finding,
  ReportSource,
  ResearchResult,
  Wire,
} from '../../schema/index.js';
import { ApiFailure, postEventStream } from './api-client.js';

/** The nodes of a research subagent, as the stream names them. */
export type WireNodeName =
  'retrieveNode' | 'routeSourceNecessity' | 'webSearchNode' | 'analysisNode';

/** Token use of a subagent so far. */
export interface WireTokens {
  input: number;
  output: number;
  total: number;
}

/** A numbered entry of the report's Sources list. */
export type WireReportSource = Wire<ReportSource>;

/**
 * A source a finding cites, with the text it quoted (its `index` is the report's `[n]` once the
 * report is written).
 */
export type WireFindingCitation = Wire<ExtractedCitation>;

/** What one subagent found. */
export type WireFinding = Wire<Finding>;

/** The result of a run (`POST /research`, the stream's `done` event). */
export type WireResearch = Wire<ResearchResult>;

/** One event of `POST /research/stream`, tagged with its SSE event name. */
export type WireResearchEvent =
  | {
      type: 'run_started';
      run_id: string;
      question: string;
      tasks: { id: string; description: string }[];
      skipped_task_ids: string[];
    }
  | { type: 'task_started'; task_id: string; task: string }
  | {
      type: 'node';
      task_id: string;
      node: WireNodeName;
      status: 'started' | 'finished';
      duration_ms?: number;
      sources?: number;
      next?: WireNodeName;
      reason?: string;
      tokens?: WireTokens;
    }
  | {
      type: 'task_finished';
      task_id: string;
      status: 'done' | 'timeout' | 'failed';
      sources: number;
      duration_ms: number;
      tokens: WireTokens;
      finding: WireFinding;
    }
  | { type: 'done'; result: WireResearch };

const EVENTS = new Set(['run_started', 'task_started', 'node', 'task_finished']);

/**
 * Runs a research question over `POST /research/stream`, calling `on` with each event as it
 * arrives and resolving with the result of the `done` event. An `error` event, an error status
 * or a stream that ends without `done` rejects with an {@link ApiFailure}.
 *
 * @example
 * const result = await streamResearch({ question, tasks: 3 }, (event) => render(event), signal);
 */
export async function streamResearch(
  body: { question: string; tasks?: number },
  on: (event: WireResearchEvent) => void,
  signal: AbortSignal,
): Promise<WireResearch> {
  for await (const { event, data } of postEventStream(
    '/research/stream',
    body,
    signal,
    'research',
  )) {
    if (EVENTS.has(event)) on({ type: event, ...data } as WireResearchEvent);
    if (event === 'done') {
      const result = data as unknown as WireResearch;
      on({ type: 'done', result });
      return result;
    }
  }
  throw new ApiFailure(0, 'network', 'The research stopped before it was complete. Try again.');
}
