import { z } from 'zod';
import { defineTool, runLoop } from '../src/agents/loop/index.js';
import { createScriptedModel, type ScriptedStep } from '../src/test/scripted-model.js';
import { collectGarbage } from './gc.js';
import type { BenchOptions } from './options.js';
import { aiSdkPerStepMs } from './orchestration-peers.js';

/** Runs of the 3-step loop timed for the per-step figure. */
const RUNS = 1000;
/** Runs held open at once for the memory figure. */
const CONCURRENT = 500;

/** Tool call, tool call, text: the shape of a book answer. */
const SCRIPT: ScriptedStep[] = [
  { toolCalls: [{ toolName: 'search', input: { query: 'ROS 2 nodes' } }] },
  { toolCalls: [{ toolName: 'search', input: { query: 'ROS 2 topics' } }] },
  { text: ['ROS 2 nodes ', 'talk over topics [1][2].'] },
];

const search = defineTool({
  name: 'search',
  description: 'Searches the book.',
  inputSchema: z.object({ query: z.string() }),
  execute: ({ query }) => ({ status: 'success', content: [{ index: 1, text: `about ${query}` }] }),
});

const options = (model: ReturnType<typeof createScriptedModel>) => ({
  model,
  system: 'Answer from the book.',
  messages: [{ role: 'user' as const, content: 'How do ROS 2 nodes talk?' }],
  tools: [search],
  maxSteps: 6,
  timeoutMs: 60_000,
});

/**
 * Measures the tool-calling loop's own overhead with a zero-latency scripted model: milliseconds
 * per step over 1000 runs of a 3-step loop (tool call, tool call, text), and heap bytes per run
 * with 500 runs held open at once (each parked inside its first tool call). Prints nothing.
 *
 * @example
 * console.table(await benchLoop());
 */
export async function benchLoop(bench: BenchOptions): Promise<Record<string, number | string>> {
  const model = createScriptedModel((call) => SCRIPT[call % SCRIPT.length] as ScriptedStep);
  for (let i = 0; i < 200; i++) await runLoop(options(model));

  const started = performance.now();
  let steps = 0;
  for (let i = 0; i < RUNS; i++) steps += (await runLoop(options(model))).steps;
  const elapsed = performance.now() - started;

  const aiSdk = await aiSdkPerStepMs(bench);
  const gc = collectGarbage();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let parked = 0;
  let allParked!: () => void;
  const ready = new Promise<void>((resolve) => (allParked = resolve));
  const held = defineTool({
    name: 'search',
    description: 'Searches the book.',
    inputSchema: z.object({ query: z.string() }),
    execute: async () => {
      if (++parked === CONCURRENT) allParked();
      await gate;
      return { status: 'no_results', content: [] };
    },
  });
  const runs = Array.from({ length: CONCURRENT }, () => {
    const scripted = createScriptedModel((call) => SCRIPT[call % SCRIPT.length] as ScriptedStep);
    return runLoop({ ...options(scripted), tools: [held] });
  });
  await ready;
  gc?.();
  const during = process.memoryUsage().heapUsed;
  release();
  await Promise.all(runs);

  return {
    runs: RUNS,
    stepsPerRun: steps / RUNS,
    msPerStep: round(elapsed / steps, 4),
    aiSdkGenerateTextMsPerStep: round(aiSdk, 4),
    'cohort ÷ AI SDK per step': round(elapsed / steps / aiSdk, 2),
    msPerRun: round(elapsed / RUNS, 4),
    targetMsPerStep: 0.5,
    concurrentRuns: CONCURRENT,
    heapBytesPerActiveRun: Math.round((during - before) / CONCURRENT),
    gc: gc ? 'forced' : 'not available (figure is noisy)',
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
