import * as z from 'zod';
import type { SpanRecord } from '../telemetry/index.js';
import type { Db } from './db.js';
import type { RunRepo, TracedRun } from './run-repo.js';
import {
  appendLinesDurably,
  completeLines,
  removeFilesDurably,
  writeFileDurably,
} from './durable-file.js';
import { lazySchema } from '../schema/lazy-schema.js';

/**
 * The trace journal of an embedded store's data folder: traces recorded by a process that
 * answered from the sealed start cache without opening the engine (see start-cache-seal.ts), one
 * JSON line each, appended and flushed to disk before that process releases the folder lock.
 * The next process that opens the engine writes them into the store (`foldTraceJournal`) before
 * anything reads it, then deletes the file. Writing them again is harmless (a run or span id
 * already stored is ignored), so a crash between the two steps loses and doubles nothing.
 */
export const TRACE_JOURNAL_FILE = 'cohort-trace-journal.jsonl';

/** One journal line: a finished run's trace, as `RunRepo.recordTrace` takes it. */
const JournalEntry = lazySchema(() =>
  z.object({
    run: z.object({
      id: z.string().min(1),
      kind: z.string().min(1),
      status: z.string().min(1),
      input: z.unknown(),
    }),
    spans: z.array(
      z.object({
        spanId: z.string(),
        parentId: z.string().nullable(),
        name: z.string(),
        startMs: z.number(),
        durationMs: z.number(),
        attributes: z.record(
          z.string(),
          z.union([
            z.string(),
            z.number(),
            z.boolean(),
            z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
          ]),
        ),
        status: z.enum(['ok', 'error']),
        error: z.string().optional(),
      }),
    ),
  }),
);

/** A trace as the journal keeps it. */
export interface JournalTrace {
  run: TracedRun;
  spans: readonly SpanRecord[];
}

/**
 * Appends `traces` to the journal of `dataDir` and flushes them to disk: when this returns they
 * survive a crash. Call it with the folder lock held. A last line left unfinished by a process
 * that was killed while appending (never acknowledged) is cut off first, so it cannot swallow
 * the lines that follow it.
 *
 * @example
 * appendTraceJournal('.cohort', [{ run, spans }]);
 */
export function appendTraceJournal(dataDir: string, traces: readonly JournalTrace[]): void {
  appendLinesDurably(
    dataDir,
    TRACE_JOURNAL_FILE,
    traces.map((trace) => JSON.stringify(trace) + '\n'),
  );
}

/**
 * The traces in the journal of `dataDir`, oldest first; a line that is unfinished or not a trace
 * (the file is on disk, so anything may be in it) is skipped.
 */
export function readTraceJournal(dataDir: string): JournalTrace[] {
  const traces: JournalTrace[] = [];
  for (const line of completeLines(dataDir, TRACE_JOURNAL_FILE)) {
    try {
      const parsed = JournalEntry.safeParse(JSON.parse(line));
      if (parsed.success) traces.push(parsed.data as JournalTrace);
    } catch {
      // Not JSON: skipped.
    }
  }
  return traces;
}

/**
 * Writes the journal's traces into the store (through `runs`, as if recorded now), then deletes
 * the journal, or, when some could not be written, keeps only those for the next open. Call it
 * with the folder lock held, after the engine opened and before anything reads the store.
 * Returns how many traces are now in the store and how many stay in the journal.
 */
export async function foldTraceJournal(
  dataDir: string,
  store: { db: Db; runs: Pick<RunRepo, 'recordTrace' | 'flushTraces'> },
): Promise<{ folded: number; kept: number }> {
  const traces = readTraceJournal(dataDir);
  if (traces.length > 0) {
    // A batch that fails is reported and dropped by the repo: what is stored is checked here,
    // and what is not is tried once more one trace at a time, so that one bad trace keeps only
    // itself out.
    const unstored = async (list: readonly JournalTrace[]) => {
      const { rows } = await store.db.query<{ id: string }>(
        'SELECT id FROM runs WHERE id = ANY($1::text[])',
        [list.map((trace) => trace.run.id)],
      );
      const stored = new Set(rows.map((row) => row.id));
      return list.filter((trace) => !stored.has(trace.run.id));
    };
    for (const trace of traces) store.runs.recordTrace(trace.run, trace.spans);
    await store.runs.flushTraces();
    let missing = await unstored(traces);
    if (missing.length > 1) {
      for (const trace of missing) {
        store.runs.recordTrace(trace.run, trace.spans);
        await store.runs.flushTraces();
      }
      missing = await unstored(missing);
    }
    if (missing.length > 0) {
      writeFileDurably(
        dataDir,
        TRACE_JOURNAL_FILE,
        missing.map((trace) => JSON.stringify(trace) + '\n').join(''),
      );
      return { folded: traces.length - missing.length, kept: missing.length };
    }
  }
  removeFilesDurably(dataDir, [TRACE_JOURNAL_FILE]);
  return { folded: traces.length, kept: 0 };
}
