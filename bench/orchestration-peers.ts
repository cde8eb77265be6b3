import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { createScriptedModel, type ScriptedStep } from '../src/test/scripted-model.js';
import type { BenchOptions } from './options.js';
import { timeMs } from './stats.js';

/**
 * LangGraph.js running the research subagent's three-node chain (retrieve → web search →
 * analysis) with zero-latency nodes: milliseconds per node, the peer of cohort's graph overhead.
 */
export async function langGraphPerNodeMs(options: BenchOptions): Promise<number> {
  const State = Annotation.Root({
    query: Annotation<string>(),
    findings: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode('retrieve', async () => ({}))
    .addNode('webSearch', async () => ({}))
    .addNode('analysis', async () => ({ findings: ['s'] }))
    .addEdge(START, 'retrieve')
    .addEdge('retrieve', 'webSearch')
    .addEdge('webSearch', 'analysis')
    .addEdge('analysis', END)
    .compile();
  const runs = options.quick ? 100 : 500;
  for (let i = 0; i < 50; i++) await graph.invoke({ query: 'q' });
  const ms = await timeMs(async () => {
    for (let i = 0; i < runs; i++) await graph.invoke({ query: 'q' });
  });
  return ms / runs / 3;
}

/** Tool call, tool call, text: the same script as cohort's loop figure. */
const SCRIPT: ScriptedStep[] = [
  { toolCalls: [{ toolName: 'search', input: { query: 'ROS 2 nodes' } }] },
  { toolCalls: [{ toolName: 'search', input: { query: 'ROS 2 topics' } }] },
  { text: ['ROS 2 nodes ', 'talk over topics [1][2].'] },
];

/**
 * The AI SDK's `generateText` tool loop over the same zero-latency scripted model and the same
 * three-step script as cohort's loop figure: milliseconds per step.
 */
export async function aiSdkPerStepMs(options: BenchOptions): Promise<number> {
  const model = createScriptedModel((call) => SCRIPT[call % SCRIPT.length] as ScriptedStep);
  const search = tool({
    description: 'Searches the book.',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => ({
      status: 'success',
      content: [{ index: 1, text: `about ${query}` }],
    }),
  });
  const once = () =>
    generateText({
      model,
      system: 'Answer from the book.',
      messages: [{ role: 'user', content: 'How do ROS 2 nodes talk?' }],
      tools: { search },
      stopWhen: stepCountIs(6),
    });
  for (let i = 0; i < 100; i++) await once();
  const runs = options.quick ? 300 : 1000;
  let steps = 0;
  const ms = await timeMs(async () => {
    for (let i = 0; i < runs; i++) steps += (await once()).steps.length;
  });
  return ms / steps;
}
