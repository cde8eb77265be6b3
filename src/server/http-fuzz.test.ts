import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CohortConfig } from '../config/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { fuzzCases, fuzzProblem } from '../test/http-fuzz.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';
import { createServer } from './create-server.js';

// The fast version of scripts/fuzz-http.ts: every systematic hostile variant of every route,
// plus a few hundred random ones, in process. No 500, and every 4xx a JSON error naming what
// was wrong (a 422 names the field).
let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

describe('fuzzing every route', () => {
  it('answers every hostile request without a 500, with a JSON error naming what was wrong', async () => {
    const app = createServer(
      { assistant: createTestAssistant(store), store, modeDescription: 'extractive (test)' },
      {
        webAssets: testWebAssets,
        research: {
          settings: CohortConfig.parse({}).research,
          retriever: { retrieve: () => Promise.resolve([]) },
          webSearch: () => Promise.resolve([]),
          paperSearches: [],
          runs: store.runs,
        },
        coding: { workspace: mkdtempSync(join(tmpdir(), 'cohort-fuzz-')) },
      },
    );
    const cases = fuzzCases({ extra: 300, seed: 7 });
    const problems: string[] = [];
    for (const c of cases) {
      const response = await app.request(c.path, {
        method: c.method,
        headers: c.headers,
        ...(c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD'
          ? { body: c.body }
          : {}),
      });
      const problem = fuzzProblem(
        response.status,
        response.headers.get('content-type') ?? '',
        c.method === 'HEAD' ? '' : await response.text(),
        { head: c.method === 'HEAD' },
      );
      if (problem) problems.push(`${c.method} ${c.path.slice(0, 60)} [${c.name}]: ${problem}`);
    }
    expect(cases.length).toBeGreaterThan(1000);
    if (process.env.FUZZ_DUMP) console.log(cases.length, problems.join('\n'));
    expect(problems).toEqual([]);
  }, 240_000);
});
