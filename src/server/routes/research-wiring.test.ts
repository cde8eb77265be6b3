import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CohortConfig } from '../../config/index.js';
import { openResearch, type ResearchDependencies } from '../../research/index.js';
import type { KnowledgeBase } from '../../retrieval/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { createTestAssistant, testWebAssets } from '../../test/test-assistant.js';
import { createServer } from '../create-server.js';
import { startServer } from '../start-server.js';

// `/research` opens the research agent with `openResearch`, like `cohort research`, on the served
// knowledge base: the spy passes every call through to the real function.
vi.mock('../../research/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../research/index.js')>();
  return { ...actual, openResearch: vi.fn(actual.openResearch) };
});

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

/** A served knowledge base whose retriever records its queries, and research parts on it. */
function servedParts(queries: string[] = []) {
  const config = CohortConfig.parse({});
  const knowledgeBase: KnowledgeBase = {
    config,
    store,
    retriever: {
      retrieve: async (query) => {
        queries.push(query);
        return [];
      },
    },
    close: async () => undefined,
  };
  // No web or paper search and no model: the run reads the knowledge base alone.
  const parts: ResearchDependencies = {
    settings: config.research,
    retriever: knowledgeBase.retriever,
    paperSearches: [],
    runs: store.runs,
  };
  return { knowledgeBase, parts };
}

describe('/research wiring', () => {
  beforeEach(() => {
    vi.mocked(openResearch).mockClear();
  });

  it('closes the research agent it opened (and the MCP servers it started) when the server stops', async () => {
    const actual =
      await vi.importActual<typeof import('../../research/index.js')>('../../research/index.js');
    const closed = vi.fn();
    vi.mocked(openResearch).mockImplementationOnce(async (options) => {
      const opened = await actual.openResearch(options);
      return {
        ...opened,
        close: async () => {
          closed();
          await opened.close();
        },
      };
    });
    const { knowledgeBase, parts } = servedParts();
    const running = await startServer(
      { assistant: createTestAssistant(store), store, modeDescription: 'test', knowledgeBase },
      {
        webAssets: testWebAssets,
        research: parts,
        server: { port: 0, host: '127.0.0.1' },
        handleSignals: false,
      },
    );
    const response = await fetch(`${running.url}/research`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is a ROS 2 topic?', tasks: 1 }),
    });
    expect(response.status).toBe(200);
    expect(closed).not.toHaveBeenCalled();
    await running.close();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('opens research once, with openResearch, on the served knowledge base', async () => {
    const queries: string[] = [];
    const { knowledgeBase, parts } = servedParts(queries);
    const app = createServer(
      { assistant: createTestAssistant(store), store, modeDescription: 'test', knowledgeBase },
      { webAssets: testWebAssets, research: parts },
    );
    const ask = () =>
      app.request('/research', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'What is a ROS 2 topic?', tasks: 1 }),
      });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    expect(vi.mocked(openResearch)).toHaveBeenCalledTimes(1);
    const [options] = vi.mocked(openResearch).mock.calls[0] ?? [];
    expect(options?.knowledgeBase).toBe(knowledgeBase);
    expect(options?.dependencies).toBe(parts);
    expect(queries.length).toBeGreaterThan(0);
  });
});
