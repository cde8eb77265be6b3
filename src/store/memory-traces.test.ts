import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_KEEP_RUNS } from '../config/index.js';
import { traceView, type SpanRecord } from '../telemetry/index.js';
import { seededRandom } from '../test/seeded-random.js';
import { testEngines } from '../test/test-engines.js';
import { MemoryTraces } from './memory-traces.js';
import { openPgliteDb } from './pglite-db.js';
import { createStore, openStore, type Store } from './store.js';

// A memory:// store keeps its traces in the process (MemoryTraces) instead of its engine's
// tables: every reader (RunRepo.get and spans, so GET /runs/:id/trace and the trace view) must
// see what the engine would have given back.

const ATTRIBUTE_VALUES = [
  'chat',
  '',
  0,
  -1.5,
  1e21,
  true,
  false,
  ['a', 'b'],
  [1, 2.5],
  [true, null],
  'ünïcödé "quoted" \\ /',
  'score 0.97 ≥ 0.7 😀',
];

/** A random but repeatable history of runs and traces, the way answers, research and coding write them. */
function scriptFor(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const runIds = Array.from({ length: 24 }, (_, i) => `run-${i.toString(16)}`);
  const span = (): SpanRecord => {
    const attributes: SpanRecord['attributes'] = {};
    const keys = [
      'gen_ai.operation.name',
      'gen_ai.usage.input_tokens',
      'cohort.routing.agent',
      'z',
      'aa',
    ];
    for (const key of keys) if (random() < 0.5) attributes[key] = pick(ATTRIBUTE_VALUES) as string;
    const failed = random() < 0.2;
    return {
      // Few ids and start times, so a span id comes again and start times tie.
      spanId: Math.floor(random() * 40)
        .toString(16)
        .padStart(16, '0'),
      parentId: random() < 0.3 ? null : Math.floor(random() * 40).toString(16),
      name: pick(['cohort.ask', 'cohort.routing', 'invoke_agent glossary', 'research.task t1']),
      startMs: 1_764_300_000_000 + Math.floor(random() * 8) + pick([0, 0.25, 0.5]),
      durationMs: pick([0, 0.001, 2.5, 1234.567]),
      status: failed ? 'error' : 'ok',
      ...(failed ? { error: pick(['timeout', '']) } : random() < 0.1 ? { error: '' } : {}),
      attributes,
    };
  };
  // The first ids are runs stored before they are traced (research, coding), the others runs
  // only traced (answers), as cohort writes them: a run only traced is never created, put or
  // updated afterwards (its id is a new query id).
  const stored = runIds.slice(0, 8);
  const steps: ((store: Store) => Promise<void> | void)[] = stored.map(
    (id, i) => (store) =>
      i % 2 === 0
        ? store.runs.create({ id, kind: 'research', status: 'running', input: { question: id } })
        : store.runs.put({ id, kind: 'code-session', status: 'open', input: {}, output: [1] }),
  );
  for (let i = 0; i < 160; i++) {
    const id = pick(runIds);
    const roll = random();
    if (roll < 0.1 && stored.includes(id)) {
      const status = pick(['done', 'interrupted', 'awaiting_approval']);
      steps.push((store) => store.runs.update(id, { status, output: { report: 'r' } }));
    } else {
      const run = {
        id,
        kind: pick(['answer', 'research', 'code']),
        status: pick(['done', 'failed', 'awaiting_approval']),
        input: pick([
          { query: `what is ${id}?`, sessionId: 's' },
          {},
          undefined,
          { nested: { b: [1, 'x'], a: null } },
        ]),
      };
      const spans = Array.from({ length: Math.floor(random() * 6) }, span);
      steps.push((store) => store.runs.recordTrace(run, spans));
    }
    if (random() < 0.2) steps.push((store) => store.runs.flushTraces());
  }
  return { steps, runIds: [...runIds, 'never-recorded'] };
}

/** Every run and trace as the store's readers see them. */
async function readBack(store: Store, runIds: readonly string[]) {
  const seen = [];
  for (const id of runIds) {
    const run = await store.runs.get(id);
    const spans = await store.runs.spans(id);
    seen.push({ id, run, spans, view: run && spans.length > 0 ? traceView(run, spans) : null });
  }
  return seen;
}

const engines = testEngines().filter((engine) => engine.name !== 'pglite-folder');

for (const engine of engines) {
  describe.skipIf(engine.skip)(
    `a memory:// store's traces against the engine's, on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let inEngine: Store;
      let inMemory: Store;
      beforeAll(async () => {
        inMemory = await createStore(await openPgliteDb('memory://'), { tracesInMemory: true });
      });
      afterAll(() => inMemory.close());

      for (const seed of [1, 2, 3, 4]) {
        it(`reads back the same runs and spans (seed ${seed})`, async () => {
          inEngine = await engine.open();
          const fresh = await createStore(await openPgliteDb('memory://'), {
            tracesInMemory: true,
          });
          try {
            const { steps, runIds } = scriptFor(seed);
            for (const step of steps) {
              await step(inEngine);
              await step(fresh);
            }
            const expected = await readBack(inEngine, runIds);
            expect(expected.some((entry) => entry.spans.length > 1)).toBe(true);
            expect(await readBack(fresh, runIds)).toStrictEqual(expected);
            // Nothing of it went into the in-memory engine's span table.
            const { rows } = await fresh.db.query('SELECT 1 FROM run_spans');
            expect(rows).toEqual([]);
          } finally {
            await inEngine.close();
            await fresh.close();
          }
        });
      }

      it('answers a read right after recording, with no write in between', async () => {
        inMemory.runs.recordTrace(
          { id: 'q1', kind: 'answer', status: 'done', input: { query: 'q' } },
          [
            {
              spanId: '1',
              parentId: null,
              name: 'cohort.ask',
              startMs: 1,
              durationMs: 2,
              status: 'ok',
              attributes: {},
            },
          ],
        );
        expect(await inMemory.runs.get('q1')).toStrictEqual({
          id: 'q1',
          kind: 'answer',
          status: 'done',
          input: { query: 'q' },
          output: null,
        });
        expect((await inMemory.runs.spans('q1')).map((span) => span.spanId)).toEqual(['1']);
      });
    },
  );
}

describe('how many traces MemoryTraces keeps', () => {
  const answer = (id: string) => ({ id, kind: 'answer', status: 'done', input: {} });
  const spans = (id: string): SpanRecord[] => [
    {
      spanId: id,
      parentId: null,
      name: 'cohort.ask',
      startMs: 1,
      durationMs: 1,
      status: 'ok',
      attributes: {},
    },
  ];

  it('keeps the newest keepRuns it may drop, and every run someone may continue', () => {
    const traces = new MemoryTraces({ keepRuns: 3 });
    traces.record(
      { id: 'waiting', kind: 'code', status: 'awaiting_approval', input: {} },
      spans('w'),
    );
    traces.record(
      { id: 'code-session:s1', kind: 'code-session', status: 'open', input: {} },
      spans('s'),
    );
    for (let i = 1; i <= 8; i++) traces.record(answer(`q${i}`), spans(`${i}`));
    const kept = (ids: string[]) => ids.filter((id) => traces.spans(id).length > 0);
    const all = ['waiting', 'code-session:s1', ...Array.from({ length: 8 }, (_, i) => `q${i + 1}`)];
    expect(kept(all)).toEqual(['waiting', 'code-session:s1', 'q6', 'q7', 'q8']);
    expect(traces.size).toBe(5);

    // The paused run, resumed and finished, may go now: it is the oldest.
    traces.record({ id: 'waiting', kind: 'code', status: 'completed', input: {} }, spans('w2'));
    expect(kept(all)).toEqual(['code-session:s1', 'q6', 'q7', 'q8']);
    // Its run as first recorded, like the engine's row.
    expect(traces.run('q8')).toStrictEqual({ ...answer('q8'), output: null });
    expect(traces.run('q1')).toBeUndefined();
  });

  it('keeps every trace when keepRuns is unset', () => {
    const traces = new MemoryTraces();
    for (let i = 0; i < 500; i++) traces.record(answer(`q${i}`), spans('1'));
    expect(traces.size).toBe(500);
  });

  it(`keeps ${DEFAULT_MEMORY_KEEP_RUNS} traces in a memory:// store, none in its engine`, async () => {
    const store = await openStore({ dataDir: 'memory://' });
    try {
      for (let i = 0; i < DEFAULT_MEMORY_KEEP_RUNS + 50; i++)
        store.runs.recordTrace(answer(`m${i}`), spans('1'));
      await store.runs.flushTraces();
      expect(await store.runs.get('m49')).toBeUndefined();
      expect(await store.runs.spans('m49')).toEqual([]);
      expect(await store.runs.get('m50')).toMatchObject({ kind: 'answer' });
      expect(await store.runs.spans(`m${DEFAULT_MEMORY_KEEP_RUNS + 49}`)).toHaveLength(1);
      const { rows } = await store.db.query(
        'SELECT id FROM runs UNION ALL SELECT run_id FROM run_spans',
      );
      expect(rows).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
