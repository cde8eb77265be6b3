/**
 * Routes every question of every routing set (eval/routing-*.jsonl and the shared dev set) over
 * one book with the rules alone (arbiter off) and writes one JSON line per question: the set, its
 * split, the label, the rules' decision and what `explain` shows behind it (keyword scores, the
 * classifier's probabilities, the subject's grounding). For experiments on the routing arbiter.
 *
 * Usage: npx tsx scripts/experiments/dump-routes.ts <book dir> > routes.jsonl
 */
import { readdirSync } from 'node:fs';
import { ingest } from '../../src/retrieval/index.js';
import {
  createBookRegistry,
  createRouter,
  loadBookKnowledge,
  loadRoutingCases,
} from '../../src/routing/index.js';
import { createStore, openPgliteDb } from '../../src/store/index.js';

const book = process.argv[2] ?? '../shared/corpus/physical-ai-book';
const files = [
  '../shared/eval/routing-dev.jsonl',
  ...readdirSync('eval')
    .filter((f) => f.startsWith('routing-'))
    .map((f) => `eval/${f}`),
];
const store = await createStore(await openPgliteDb('memory://'));
await ingest(book, { store });
const router = createRouter(createBookRegistry(), { arbiter: false });
router.learn(await loadBookKnowledge(store));
await store.close();
for (const file of files) {
  for (const c of loadRoutingCases(file)) {
    const {
      result: r,
      keywords,
      probabilities,
      grounding,
      onTopic,
      clauses,
    } = router.explain(c.query);
    process.stdout.write(
      JSON.stringify({
        file,
        split: c.split ?? 'dev',
        kind: c.kind,
        query: c.query,
        agent: c.agent,
        secondary: c.secondary,
        routed: r.primaryAgent,
        routedSecondary: r.secondaryAgents,
        confidence: r.confidence,
        phase: r.phase,
        intent: r.intent,
        scores: r.scores,
        offTopic: r.offTopic ? true : false,
        keywords: Object.fromEntries(Object.entries(keywords).map(([a, k]) => [a, k.score])),
        probabilities,
        onTopic,
        asks: clauses.length,
        grounding: grounding && {
          judged: grounding.judged,
          score: grounding.score,
          together: grounding.together,
          covered: grounding.covered.length,
          uncovered: grounding.uncovered.length,
          bookTerms: grounding.bookTerms.length,
          domainShares: grounding.domainShares,
          purpose: grounding.purpose?.score,
        },
      }) + '\n',
    );
  }
}
