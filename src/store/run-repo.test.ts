import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_KEEP_RUNS } from '../config/index.js';
import type { SpanRecord } from '../telemetry/index.js';
import { testEngines } from '../test/test-engines.js';
import { openPgliteDb } from './pglite-db.js';
import type { Db } from './db.js';
import { MAX_WAITING_TRACE_SPANS } from './run-repo.js';
import { createStore, openStore, type Store } from './store.js';

// Traces are recorded off the answer's path: queued, written in batches, and written before any
// read of this process and before the store closes, so GET /runs/:id/trace never misses one.

const span = (spanId: string, parentId: string | null, name: string): SpanRecord => ({
  spanId,
  parentId,
  name,
  startMs: 1_000 + Number.parseInt(spanId, 16),
  durationMs: 2.5,
  attributes: { 'gen_ai.operation.name': 'chat', 'cohort.tags': ['a', 'b'] },
  status: 'ok',
});
const answerRun = (id: string) => ({ id, kind: 'answer', status: 'done', input: { query: 'q' } });
const storedSpans = async (db: Db, runId: string) =>
  (await db.query('SELECT span_id FROM run_spans WHERE run_id = $1', [runId])).rows.length;

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `recorded traces on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let store: Store;
      beforeAll(async () => {
        store = await engine.open();
      });
      afterAll(() => store.close());

      it('queues a trace without writing it, and a read right after sees it whole', async () => {
        store.runs.recordTrace(answerRun('q1'), [
          span('1', null, 'cohort.ask'),
          span('2', '1', 'x'),
        ]);
        store.runs.recordTrace(answerRun('q2'), [span('3', null, 'cohort.ask')]);
        expect(await storedSpans(store.db, 'q1')).toBe(0);
        const spans = await store.runs.spans('q1');
        expect(spans.map((s) => [s.spanId, s.parentId, s.name])).toEqual([
          ['1', null, 'cohort.ask'],
          ['2', '1', 'x'],
        ]);
        expect(spans[0]?.attributes).toEqual({
          'gen_ai.operation.name': 'chat',
          'cohort.tags': ['a', 'b'],
        });
        // The whole queue went in that write: the other run is there too.
        expect(await storedSpans(store.db, 'q2')).toBe(1);
        expect(await store.runs.get('q2')).toMatchObject({ kind: 'answer', status: 'done' });
      });

      it('keeps a run already stored and ignores a span id recorded twice', async () => {
        await store.runs.create({ id: 'r1', kind: 'research', status: 'running', input: {} });
        store.runs.recordTrace({ ...answerRun('r1'), kind: 'answer' }, [span('a', null, 'one')]);
        store.runs.recordTrace(answerRun('r1'), [span('a', null, 'again'), span('b', 'a', 'two')]);
        expect((await store.runs.spans('r1')).map((s) => s.name)).toEqual(['one', 'two']);
        expect(await store.runs.get('r1')).toMatchObject({ kind: 'research' });
      });

      it('writes the queue on its own after a short delay', async () => {
        store.runs.recordTrace(answerRun('q3'), [span('4', null, 'cohort.ask')]);
        await expect.poll(() => storedSpans(store.db, 'q3'), { timeout: 3_000 }).toBe(1);
      });
    },
  );
}

describe('recorded traces when the store closes or a write fails', () => {
  it('writes queued traces before the store closes', async () => {
    const db = await openPgliteDb('memory://');
    let atClose = -1;
    const store = await createStore({
      ...db,
      query: db.query.bind(db),
      exec: db.exec.bind(db),
      transaction: db.transaction.bind(db),
      engine: db.engine,
      async close() {
        atClose = await storedSpans(db, 'q1');
        await db.close();
      },
    });
    store.runs.recordTrace(answerRun('q1'), [span('1', null, 'cohort.ask')]);
    await store.close();
    expect(atClose).toBe(1);
  });

  it("reports a batch that cannot be written to the store's onTraceError and goes on recording the next", async () => {
    const db = await openPgliteDb('memory://');
    let failNext = false;
    const failures: string[][] = [];
    const failing: Db = {
      ...db,
      query: db.query.bind(db),
      exec: db.exec.bind(db),
      engine: db.engine,
      close: db.close.bind(db),
      transaction: (fn) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('disk full'));
        }
        return db.transaction(fn);
      },
    };
    const store = await createStore(failing, {
      onTraceError: (_cause, runIds) => failures.push(runIds),
    });
    try {
      failNext = true;
      store.runs.recordTrace(answerRun('lost'), [span('1', null, 'cohort.ask')]);
      await store.runs.flushTraces();
      expect(failures).toEqual([['lost']]);
      store.runs.recordTrace(answerRun('kept'), [span('2', null, 'cohort.ask')]);
      expect((await store.runs.spans('kept')).map((s) => s.spanId)).toEqual(['2']);
      expect(await store.runs.spans('lost')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('traces waiting to be written', () => {
  it('are bounded: past MAX_WAITING_TRACE_SPANS a trace is dropped and reported once, and writing goes on', async () => {
    // Found measuring a folder server under /chat load: traces queued behind a slow engine grew
    // its memory with every answer.
    const db = await openPgliteDb('memory://');
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let stall = false;
    const slow: Db = {
      ...db,
      query: db.query.bind(db),
      exec: db.exec.bind(db),
      engine: db.engine,
      close: db.close.bind(db),
      transaction: async (fn) => {
        if (stall) await stalled;
        return db.transaction(fn);
      },
    };
    const reports: { cause: string; runIds: string[] }[] = [];
    const store = await createStore(slow, {
      onTraceError: (cause, runIds) => reports.push({ cause: String(cause), runIds }),
    });
    stall = true;
    try {
      const spansEach = 64;
      const traces = Math.ceil(MAX_WAITING_TRACE_SPANS / spansEach) + 10;
      const spans = Array.from({ length: spansEach }, (_, i) => span(i.toString(16), null, 'x'));
      for (let i = 0; i < traces; i += 1) store.runs.recordTrace(answerRun(`t${i}`), spans);
      // The writes are stalled: every trace past the bound was dropped, none before it.
      stall = false;
      release();
      await store.runs.flushTraces();
      const dropped = reports.flatMap((report) => report.runIds);
      expect(dropped).toEqual(Array.from({ length: 10 }, (_, i) => `t${traces - 10 + i}`));
      expect(reports).toHaveLength(1);
      expect(reports[0]!.cause).toContain('spans behind');
      expect(await storedSpans(db, 't0')).toBe(spansEach);
      expect(await storedSpans(db, `t${traces - 1}`)).toBe(0);
      // Once written, traces are recorded again.
      store.runs.recordTrace(answerRun('after'), spans);
      expect(await storedSpans(db, 'after')).toBe(0);
      await store.runs.flushTraces();
      expect(await storedSpans(db, 'after')).toBe(spansEach);
    } finally {
      await store.close();
    }
  });
});

describe('how many runs a store keeps', () => {
  const runCount = async (db: Db) =>
    Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM runs')).rows[0]!.n);

  it('keeps the most recent keepRuns finished runs and their spans, and every run someone may continue', async () => {
    const store = await createStore(await openPgliteDb('memory://'), { keepRuns: 3 });
    try {
      await store.runs.create({
        id: 'waiting',
        kind: 'code',
        status: 'awaiting_approval',
        input: {},
      });
      await store.runs.put({
        id: 'code-session:s1',
        kind: 'code-session',
        status: 'open',
        input: {},
        output: { messages: [] },
      });
      for (let i = 1; i <= 8; i++) {
        // One write each: each run has its own created_at, so "most recent" is well defined.
        store.runs.recordTrace(answerRun(`q${i}`), [span(`${i}`, null, 'cohort.ask')]);
        await store.runs.flushTraces();
      }
      const { rows } = await store.db.query<{ id: string }>('SELECT id FROM runs ORDER BY id');
      expect(rows.map((row) => row.id)).toEqual(['code-session:s1', 'q6', 'q7', 'q8', 'waiting']);
      const spans = await store.db.query<{ run_id: string }>(
        'SELECT run_id FROM run_spans ORDER BY run_id',
      );
      expect(spans.rows.map((row) => row.run_id)).toEqual(['q6', 'q7', 'q8']);
    } finally {
      await store.close();
    }
  });

  const manyRuns = (store: Store, count: number) => {
    for (let i = 0; i < count; i++)
      store.runs.recordTrace(answerRun(`m${i}`), [span('1', null, 'cohort.ask')]);
    return store.runs.flushTraces();
  };

  it('keeps the runs a memory:// store holds in its engine to keepRuns too (its traces are in memory), and their owners alone', async () => {
    const store = await openStore({ dataDir: 'memory://', keepRuns: 3 });
    try {
      await store.sessions.claim('r1', 'key-a');
      for (let i = 1; i <= 8; i++) {
        await store.runs.create({ id: `r${i}`, kind: 'research', status: 'done', input: {} });
        await store.owners.claim('run', `r${i}`, 'key-a');
        store.runs.recordTrace({ ...answerRun(`r${i}`), kind: 'research' }, [span('1', null, 'x')]);
        await store.runs.flushTraces();
      }
      expect(await runCount(store.db)).toBe(3);
      expect(await storedSpans(store.db, 'r8')).toBe(0);
      // Who owned a deleted run goes with it; a session of the same id keeps its owner.
      const owners = await store.db.query<{ kind: string; id: string }>(
        'SELECT kind, id FROM owners ORDER BY kind, id',
      );
      expect(owners.rows).toEqual([
        { kind: 'run', id: 'r6' },
        { kind: 'run', id: 'r7' },
        { kind: 'run', id: 'r8' },
        { kind: 'session', id: 'r1' },
      ]);
      expect(await store.runs.spans('r8')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('keeps every run in a data folder unless keepRuns is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-runs-'));
    try {
      const store = await openStore({ dataDir: dir });
      try {
        await manyRuns(store, DEFAULT_MEMORY_KEEP_RUNS + 50);
        expect(await runCount(store.db)).toBe(DEFAULT_MEMORY_KEEP_RUNS + 50);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
