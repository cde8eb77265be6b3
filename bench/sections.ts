import { benchColdStart, benchRetrieval, benchRouting } from './book.js';
import { benchLoop } from './loop-overhead.js';
import { benchResearch } from './research.js';
import { benchSearchPeers } from './search-peers.js';
import { benchServer } from './server.js';
import { benchSubagentContext } from './subagent-context.js';
import { benchTracing } from './tracing.js';
import type { BenchOptions } from './options.js';

/** One benchmark section of `npm run bench`. */
export interface BenchSection {
  name: string;
  title: string;
  run(options: BenchOptions): Promise<Record<string, number | string>>;
}

/** Every section, in the order printed. `npm run bench -- routing loop` runs only those. */
export const benchSections: BenchSection[] = [
  { name: 'routing', title: 'routing latency per query (no model on the path)', run: benchRouting },
  {
    name: 'retrieval',
    title: 'ingestion and retrieval on the Physical AI book and the ROS 2 docs',
    run: benchRetrieval,
  },
  {
    name: 'search',
    title: 'cohort vs MiniSearch and Orama on the ROS 2 sections at 1×, 4× and 16×',
    run: benchSearchPeers,
  },
  { name: 'cold-start', title: 'cold `cohort ask` in a new process', run: benchColdStart },
  {
    name: 'loop',
    title: 'tool-calling loop overhead with a zero-latency scripted model',
    run: benchLoop,
  },
  {
    name: 'server',
    title: 'HTTP throughput on loopback (autocannon, 50 connections) and memory',
    run: benchServer,
  },
  {
    name: 'subagents',
    title: 'main-context growth from an explorer spawn reading 50 files',
    run: benchSubagentContext,
  },
  {
    name: 'research',
    title: 'research fan-out parallelism and per-node overhead',
    run: benchResearch,
  },
  {
    name: 'tracing',
    title: 'tracing overhead on the answer path: spans off, recorded in the store, exported',
    run: benchTracing,
  },
];
