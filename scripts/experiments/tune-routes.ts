/**
 * Routes every **tuning** question of eval/routing-*.jsonl (and the shared dev set) over the
 * textbook and the sample book, with the arbiter on and off, as an answer would (in the book's
 * spelling), and writes one JSON line per decision. Held-out lines are skipped before routing, so
 * nothing of them is ever printed. For grouping tune misses by cause.
 *
 * Usage: npx tsx scripts/experiments/tune-routes.ts > tune-routes.jsonl
 */
import { readdirSync } from 'node:fs';
import { openAssistant } from '../../src/assistant/index.js';
import { loadConfig } from '../../src/config/index.js';
import { loadRoutingCases } from '../../src/routing/index.js';

const BOOKS = { tb: '../shared/corpus/physical-ai-book', sb: 'examples/physical-ai-book' };
const files = [
  '../shared/eval/routing-dev.jsonl',
  ...readdirSync('eval')
    .filter((f) => f.startsWith('routing-') && f.endsWith('.jsonl'))
    .map((f) => `eval/${f}`),
];
const cases = files.flatMap((file) =>
  loadRoutingCases(file)
    .filter((c) => file.includes('routing-dev') || c.split === 'tune')
    .map((c) => ({ ...c, set: file.replace(/.*routing-|\.jsonl/g, '') })),
);
for (const [book, dir] of Object.entries(BOOKS))
  for (const arbiter of ['on', 'off']) {
    const config = loadConfig({
      env: {
        COHORT_DATA_DIR: 'memory://',
        COHORT_SAMPLE_BOOK: dir,
        COHORT_ROUTING_ARBITER: arbiter,
      },
      cwd: process.cwd(),
    });
    const opened = await openAssistant({ config });
    await opened.knowledgeBase.warm?.();
    for (const c of cases) {
      const r = opened.assistant.route(c.query);
      process.stdout.write(
        JSON.stringify({
          book,
          arbiter,
          set: c.set,
          kind: c.kind,
          query: c.query,
          agent: c.agent,
          secondary: c.secondary,
          routed: r.primaryAgent,
          routedSecondary: r.secondaryAgents,
          confidence: r.confidence,
          phase: r.phase,
          reason: r.routingReason,
        }) + '\n',
      );
    }
    await opened.close();
  }
