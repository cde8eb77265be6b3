import { afterAll, beforeAll } from 'vitest';
import { createServer, type ServerOptions } from '../server/create-server.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createTestAssistant, testWebAssets } from './test-assistant.js';

/**
 * A store in memory for the tests of one file: opened before them, closed after. Returns a
 * getter, since the store exists only once the suite has started.
 *
 * @example
 * const store = suiteStore();
 * it('…', async () => { await store().sessions.history(id); });
 */
export function suiteStore(): () => Store {
  let store: Store | undefined;
  beforeAll(async () => {
    store = await createStore(await openPgliteDb('memory://'));
  });
  afterAll(() => store?.close());
  return () => {
    if (!store)
      throw new Error('suiteStore() is read inside a test or hook, once the suite started');
    return store;
  };
}

/**
 * The HTTP app the server tests call: the test assistant (extractive, over the fake router and
 * retrieval) answering from `store`, with the test web page and `options`.
 *
 * @example
 * const res = await testServer(store()).request('/agents');
 */
export function testServer(store: Store, options: ServerOptions = {}) {
  return createServer(
    { assistant: createTestAssistant(store), store, modeDescription: 'extractive (test)' },
    { webAssets: testWebAssets, ...options },
  );
}
