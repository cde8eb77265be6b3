import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { SpanRecord } from '../telemetry/index.js';
import { sourceScript } from '../test/source-script.js';
import { runOnTinyDisk } from '../test/tiny-disk.js';
import { acquireFolderLock } from './folder-lock.js';
import { openPgliteDb } from './pglite-db.js';
import { createStore, openStore } from './store.js';
import {
  appendTraceJournal,
  foldTraceJournal,
  readTraceJournal,
  TRACE_JOURNAL_FILE,
  type JournalTrace,
} from './trace-journal.js';

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-journal-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const span = (spanId: string, parentId: string | null): SpanRecord => ({
  spanId,
  parentId,
  name: parentId ? 'cohort.routing' : 'cohort.ask',
  startMs: 1_700_000_000_000,
  durationMs: 1.5,
  attributes: { 'cohort.query.length': 22, 'cohort.mode': 'extractive' },
  status: 'ok',
});
const trace = (id: string): JournalTrace => ({
  run: { id, kind: 'answer', status: 'done', input: { query: 'What is a topic?' } },
  spans: [span(`${id}-root`, null), span(`${id}-child`, `${id}-root`)],
});

describe('the trace journal', () => {
  it('reads back what was appended, in order', () => {
    const dir = newDir();
    appendTraceJournal(dir, [trace('a'), trace('b')]);
    appendTraceJournal(dir, [trace('c')]);
    expect(readTraceJournal(dir).map((entry) => entry.run.id)).toEqual(['a', 'b', 'c']);
    expect(readTraceJournal(dir)[0]).toEqual(trace('a'));
  });

  it('skips a line cut off by a crash, and cuts it off before the next append', () => {
    const dir = newDir();
    appendTraceJournal(dir, [trace('a')]);
    // A process killed in the middle of its write leaves half a line (never acknowledged).
    appendFileSync(join(dir, TRACE_JOURNAL_FILE), JSON.stringify(trace('torn')).slice(0, 40));
    expect(readTraceJournal(dir).map((entry) => entry.run.id)).toEqual(['a']);
    appendTraceJournal(dir, [trace('b')]);
    expect(readTraceJournal(dir).map((entry) => entry.run.id)).toEqual(['a', 'b']);
    expect(readFileSync(join(dir, TRACE_JOURNAL_FILE), 'utf8')).not.toContain('torn');
  });

  it('throws when a full disk cuts the write short, instead of acknowledging a torn line', (context) => {
    // writeSync wrote what fit and returned a short count: the call returned as if its traces
    // were on disk, and the next append cut the torn line off. Run in a mount namespace of its
    // own, on a 64 KB tmpfs; skipped where the system allows no such namespace.
    const journalModule = pathToFileURL(join(import.meta.dirname, 'trace-journal.ts')).href;
    const disk = newDir();
    const big = {
      ...trace('big'),
      run: { ...trace('big').run, input: { text: 'x'.repeat(100_000) } },
    };
    const script = `
      import { appendTraceJournal } from ${JSON.stringify(journalModule)};
      try {
        appendTraceJournal(${JSON.stringify(disk)}, [${JSON.stringify(big)}]);
        process.stdout.write('acknowledged');
      } catch (error) {
        process.stdout.write('refused: ' + error.code);
      }`;
    const child = runOnTinyDisk(disk, script);
    if ('skipped' in child) {
      context.skip(child.skipped);
      return;
    }
    expect(child.stdout).toBe('refused: ENOSPC');
  });

  it('skips lines that are not traces (the file is on disk: anything may be in it)', () => {
    const dir = newDir();
    appendFileSync(
      join(dir, TRACE_JOURNAL_FILE),
      'not json\n{"run":{"id":1}}\n{"run":{"id":"x","kind":"answer","status":"done"},"spans":"no"}\n',
    );
    appendTraceJournal(dir, [trace('a')]);
    expect(readTraceJournal(dir).map((entry) => entry.run.id)).toEqual(['a']);
  });

  it('is folded into the store once: the journal goes, and folding again after a crash adds nothing', async () => {
    const dir = newDir();
    const store = await createStore(await openPgliteDb('memory://'));
    try {
      appendTraceJournal(dir, [trace('a'), trace('b')]);
      expect(await foldTraceJournal(dir, store)).toEqual({ folded: 2, kept: 0 });
      expect(existsSync(join(dir, TRACE_JOURNAL_FILE))).toBe(false);
      expect((await store.runs.spans('a')).map((s) => s.spanId).sort()).toEqual([
        'a-child',
        'a-root',
      ]);

      // Killed after the commit, before the journal was deleted: the same lines are folded again.
      appendTraceJournal(dir, [trace('a'), trace('b')]);
      expect(await foldTraceJournal(dir, store)).toEqual({ folded: 2, kept: 0 });
      const { rows } = await store.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM run_spans',
      );
      expect(rows[0]?.n).toBe(4);
      expect(await foldTraceJournal(dir, store)).toEqual({ folded: 0, kept: 0 });
    } finally {
      await store.close();
    }
  });

  it('keeps a trace the store refused, for the next open, and folds the others, then and later', async () => {
    const dir = newDir();
    const store = await createStore(await openPgliteDb('memory://'), {
      onTraceError: () => undefined,
    });
    try {
      // A run id of 20,000 random characters passes the journal's checks, but PostgreSQL's
      // primary-key index refuses a row that large. (Text with a NUL character is stored now.)
      const refusedId = randomBytes(10_000).toString('hex');
      const refused = trace(refusedId);
      appendTraceJournal(dir, [trace('a'), refused]);
      expect(await foldTraceJournal(dir, store)).toEqual({ folded: 1, kept: 1 });
      expect(readTraceJournal(dir).map((entry) => entry.run.id)).toEqual([refusedId]);
      expect((await store.runs.spans('a')).length).toBe(2);
      // A refused trace never holds back the ones journaled after it.
      appendTraceJournal(dir, [trace('b')]);
      expect(await foldTraceJournal(dir, store)).toEqual({ folded: 1, kept: 1 });
      expect((await store.runs.spans('b')).length).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('opening a data folder folds its journal before anything reads the store', async () => {
    const dir = join(newDir(), 'store');
    await (await openStore({ dataDir: dir })).close();
    // What a detached `cohort ask` leaves: the folder lock taken, the trace appended, released.
    const lock = acquireFolderLock(dir);
    appendTraceJournal(dir, [trace('detached')]);
    lock.release();
    const store = await openStore({ dataDir: dir });
    try {
      expect((await store.runs.spans('detached')).length).toBe(2);
      expect(existsSync(join(dir, TRACE_JOURNAL_FILE))).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('keeps every acknowledged trace when the writer is killed with SIGKILL mid-stream', async () => {
    const dir = newDir();
    const module = fileURLToPath(new URL('./trace-journal.ts', import.meta.url));
    // A writer that appends one trace at a time, as fast as it can, and says which were
    // acknowledged (appendTraceJournal returned: flushed to disk).
    const script = `
      const { appendTraceJournal } = await import(${JSON.stringify(module)});
      const big = 'x'.repeat(20000);
      for (let i = 0; ; i++) {
        appendTraceJournal(${JSON.stringify(dir)}, [{ run: { id: 'run-' + i, kind: 'answer', status: 'done', input: { big } }, spans: [] }]);
        process.stdout.write('ack run-' + i + '\\n');
      }`;
    const child = spawn(process.execPath, [await sourceScript(script)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: string[] = [];
    await new Promise<void>((resolve) => {
      let text = '';
      child.stdout.on('data', (data: Buffer) => {
        text += data.toString();
        const lines = text.split('\n');
        text = lines.pop() ?? '';
        for (const line of lines) acknowledged.push(line.replace(/^ack /, ''));
        if (acknowledged.length >= 30 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
    });
    await new Promise((resolve) => child.once('exit', resolve).once('close', resolve));
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    const stored = new Set(readTraceJournal(dir).map((entry) => entry.run.id));
    for (const id of acknowledged) expect(stored.has(id), id).toBe(true);
    // The journal takes appends again after the kill, whatever state the last line was left in.
    appendTraceJournal(dir, [trace('after')]);
    expect(readTraceJournal(dir).at(-1)?.run.id).toBe('after');
  }, 60_000);
});
