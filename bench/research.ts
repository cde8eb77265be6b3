import { CohortConfig } from '../src/config/index.js';
import {
  createVisitedRegistry,
  runResearch,
  runSubagentGraph,
  subagentNode,
  type SourceSearch,
  type SubagentContext,
  type SubagentInput,
  type SubagentNodes,
} from '../src/research/index.js';
import type { Retriever } from '../src/retrieval/index.js';
import type { BenchOptions } from './options.js';
import { langGraphPerNodeMs } from './orchestration-peers.js';
import { percentile, ratio, round, timeMs } from './stats.js';

/** Latency of every scripted source in the parallelism figure. */
const SOURCE_LATENCY_MS = 200;
/** Subagents run at once in the fan-out figure. */
const FAN_OUT = 8;
/** Repetitions of each parallelism measurement (median taken). */
const REPEATS = 3;
/** Subagent runs timed for the per-node overhead. */
const OVERHEAD_RUNS = 20_000;

const settings = CohortConfig.parse({}).research;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const slowRetriever: Retriever = {
  async retrieve() {
    await wait(SOURCE_LATENCY_MS);
    return [];
  },
};
const slowSearch =
  (kind: 'web' | 'paper'): SourceSearch =>
  async (query) => {
    await wait(SOURCE_LATENCY_MS);
    const slug = query.replace(/\W+/g, '-');
    return [
      {
        identifier: `https://${kind}.example/${slug}`,
        sourceType: kind,
        title: `${kind} result for ${query}`,
        content: `The ${kind} source explains ${query} in some detail, with the numbers that matter for it.`,
      },
    ];
  };

async function researchMs(tasks: number): Promise<number> {
  const question = Array.from(
    { length: tasks },
    (_, i) => `explain topic number ${i + 1} in depth`,
  ).join('; ');
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    times.push(
      await timeMs(() =>
        runResearch(question, {
          settings: { ...settings, concurrency: FAN_OUT, maxTasks: FAN_OUT },
          retriever: slowRetriever,
          webSearch: slowSearch('web'),
          paperSearches: [{ name: 'arxiv', search: slowSearch('paper') }],
        }),
      ),
    );
  }
  return percentile(times, 50);
}

/** Zero-latency nodes: what is left is the orchestration (isolation, bounds, events, checks). */
const instantNodes: SubagentNodes = {
  retrieveNode: async () => ({ internalResult: { sources: [] } }),
  routeSourceNecessity: () => 'webSearchNode',
  webSearchNode: async () => ({ webResult: { sources: [] }, paperResult: { sources: [] } }),
  analysisNode: async (state, context) => ({
    subagentFindings: [
      {
        taskId: context.taskId,
        task: state.taskDescription,
        summary: 's',
        reasoning: '',
        citations: [],
        mode: 'extractive',
        status: 'done',
      },
    ],
  }),
};

async function overheadPerNodeMs(wrapped: boolean): Promise<number> {
  const input: SubagentInput = {
    query: 'q',
    subagentTasks: [{ id: 'task-1', description: 'q' }],
    visitedSources: [],
  };
  const context: SubagentContext = {
    settings,
    runId: 'bench',
    taskId: 'task-1',
    registry: createVisitedRegistry(),
    signal: new AbortController().signal,
    emit: () => undefined,
    tokens: { input: 0, output: 0, total: 0 },
    now: () => performance.now(),
  };
  const once = async () => {
    if (wrapped) {
      await subagentNode(input, context, async (isolated, inner) => {
        const state = await runSubagentGraph(isolated, inner, instantNodes);
        return {
          subagentFindings: state.subagentFindings,
          visitedSources: state.visitedSources,
          allExtractedCitations: state.extractedCitations,
        };
      });
    } else await runSubagentGraph(input, context, instantNodes);
  };
  for (let i = 0; i < 2000; i++) await once();
  const ms = await timeMs(async () => {
    for (let i = 0; i < OVERHEAD_RUNS; i++) await once();
  });
  // The three-node chain of the LangGraph comparison: retrieve → web search → analysis.
  return ms / OVERHEAD_RUNS / 3;
}

/**
 * The research run's figures: the fan-out ratio (8 subagents against 1, sources of 200 ms,
 * concurrency 8; under 1.1 is the goal) and the orchestration overhead per node with zero-latency
 * steps (under 0.1 ms is the goal; LangGraph.js 1.7.3 takes about 0.94 ms per node).
 *
 * @example
 * console.log(await benchResearch()); // { fanOutRatio: 1.01, ... }
 */
export async function benchResearch(
  options: BenchOptions,
): Promise<Record<string, number | string>> {
  const one = await researchMs(1);
  const eight = await researchMs(FAN_OUT);
  const graphNode = await overheadPerNodeMs(false);
  const wrappedNode = await overheadPerNodeMs(true);
  const langGraphNode = await langGraphPerNodeMs(options);
  return {
    sourceLatencyMs: SOURCE_LATENCY_MS,
    oneSubagentMs: round(one, 1),
    eightSubagentsMs: round(eight, 1),
    fanOutRatio: round(eight / one, 3),
    fanOutGoal: '< 1.1 (LangGraph.js 1.7.3: 1.06)',
    graphOverheadPerNodeMs: round(graphNode, 4),
    subagentOverheadPerNodeMs: round(wrappedNode, 4),
    langGraphPerNodeMs: round(langGraphNode, 4),
    'cohort ÷ LangGraph per node': ratio(graphNode, langGraphNode),
    overheadGoal: '< 0.1 ms per node',
  };
}
