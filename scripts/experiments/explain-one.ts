/**
 * Prints what the router's `explain` shows for each question given (rules alone and with the
 * arbiter), over the sample book: for reading why one question is routed as it is.
 *
 * Usage: npx tsx scripts/experiments/explain-one.ts [--book DIR] "<question>"…
 */
import { ingest } from '../../src/retrieval/index.js';
import { createBookRegistry, createRouter, loadBookKnowledge } from '../../src/routing/index.js';
import { createStore, openPgliteDb } from '../../src/store/index.js';

const args = process.argv.slice(2);
const bookAt = args.indexOf('--book');
const book = bookAt >= 0 ? args.splice(bookAt, 2)[1]! : 'examples/physical-ai-book';
const store = await createStore(await openPgliteDb('memory://'));
await ingest(book, { store });
const knowledge = await loadBookKnowledge(store);
await store.close();
const rules = createRouter(createBookRegistry(), { arbiter: false });
rules.learn(knowledge);
const arbitrated = createRouter(createBookRegistry());
arbitrated.learn(knowledge);
for (const query of args) {
  const { result, keywords, probabilities, grounding, clauses } = rules.explain(query);
  const final = arbitrated.route(query);
  console.log(
    JSON.stringify(
      {
        query,
        final: [final.primaryAgent, final.confidence],
        rules: [result.primaryAgent, result.phase, result.intent, result.confidence],
        reason: result.routingReason,
        keywords: Object.fromEntries(
          Object.entries(keywords).map(([a, k]) => [a, [k.score, k.matched]]),
        ),
        probabilities,
        clauses: clauses.length,
        grounding,
      },
      null,
      1,
    ),
  );
}
