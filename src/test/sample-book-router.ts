import { resolve } from 'node:path';
import { ingest } from '../retrieval/index.js';
import { loadBookKnowledge } from '../routing/book-knowledge.js';
import { createBookRegistry } from '../routing/book-registry.js';
import { createRouter, type Router, type RouterOptions } from '../routing/router.js';
import { createStore, openPgliteDb } from '../store/index.js';

/** The sample book shipped with cohort (`examples/physical-ai-book`). */
export const SAMPLE_BOOK = resolve(import.meta.dirname, '../../examples/physical-ai-book');

/**
 * A router over the book registry that has learnt from the sample book what the book covers,
 * as `openAssistant` builds it: the book ingested into an in-memory store, then `learn`.
 *
 * @example
 * beforeAll(async () => { router = await sampleBookRouter(); }, 60_000);
 */
export async function sampleBookRouter(options: RouterOptions = {}): Promise<Router> {
  const store = await createStore(await openPgliteDb('memory://'));
  try {
    await ingest(SAMPLE_BOOK, { store });
    const router = createRouter(createBookRegistry(), options);
    router.learn(await loadBookKnowledge(store));
    return router;
  } finally {
    await store.close();
  }
}
