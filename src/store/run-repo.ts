import { createLogger, type SpanRecord } from '../telemetry/index.js';
import { runBatch, type Db, type Statement } from './db.js';
import type { MemoryTraces } from './memory-traces.js';
import { pruneInterval } from './prune-interval.js';
import {
  createTakenRun,
  RUN_CLAIM_LEASE_MS,
  takeRun,
  type RunBusy,
  type RunHold,
} from './run-claim.js';
import { DELETE_OLD_RUNS } from './run-retention.js';
import { storableJson } from './storable-text.js';

/** A stored run (a research run, a traced agent run). */
export interface RunRecord {
  id: string;
  kind: string;
  status: string;
  input: unknown;
  output: unknown;
}

/** A stored task of a run, saved when it finishes so an interrupted run can resume. */
export interface RunTaskRecord {
  runId: string;
  taskId: string;
  status: string;
  output: unknown;
}

const defaultLogger = createLogger({ level: 'warn' });

const json = (value: unknown) =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value;

/** A run as {@link RunRepo.recordTrace} creates it when it is not stored yet. */
export interface TracedRun {
  id: string;
  kind: string;
  status: string;
  input: unknown;
}

/** How long a recorded trace may wait to be written with others (milliseconds). */
export const TRACE_FLUSH_DELAY_MS = 250;
/** Queued spans that trigger a write at once, so a busy server's queue stays small. */
export const TRACE_FLUSH_SPANS = 2000;
/**
 * Spans waiting to be written (queued, or in batches behind a write still running) beyond which a
 * new trace is dropped and reported, as OpenTelemetry's batch span processor drops spans past its
 * queue: when the engine writes slower than a busy server answers, traces would otherwise pile up
 * in memory without bound (about 24 MB after 6,000 `/chat` answers in `bench/fixed-load.mjs`).
 */
export const MAX_WAITING_TRACE_SPANS = 8192;
/** At most this many runs are written between two deletions of old runs (see `keepRuns`). */
export const PRUNE_RUNS_EVERY = 100;

/**
 * Runs and their tasks, and the spans of traced runs: in the engine's tables, or, given
 * `traces`, the spans (and the runs only traced, such as answers) in that in-process store.
 */
export class RunRepo {
  private queued: { run: TracedRun; spans: readonly SpanRecord[] }[] = [];
  private queuedSpans = 0;
  /** Spans in batches handed to a flush that has not finished writing them. */
  private flushingSpans = 0;
  /** Runs whose traces were dropped since the last report (see MAX_WAITING_TRACE_SPANS). */
  private dropped: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly onTraceError: (cause: unknown, runIds: string[]) => void;
  private readonly keepRuns: number | undefined;
  private readonly traces: MemoryTraces | undefined;
  private readonly claimLeaseMs: number;
  /** Runs written since old ones were last deleted. */
  private runsSincePrune = 0;

  constructor(
    private readonly db: Db,
    options: {
      /** Told when a batch of traces could not be written (they are dropped). */
      onTraceError?: (cause: unknown, runIds: string[]) => void;
      /**
       * Keep only this many of the most recent finished runs (see `DELETE_OLD_RUNS`): older ones
       * are deleted once {@link PRUNE_RUNS_EVERY} runs (or a tenth of the limit, if smaller) were
       * written to the engine (in trace batches, created or put) since the last deletion. Unset
       * keeps every run.
       */
      keepRuns?: number;
      /**
       * Keeps traces here instead of in the engine (a `memory://` store's, see `MemoryTraces`):
       * `get` falls back to a run only traced there; runs created, put or updated stay in the
       * engine, which still keeps `keepRuns` of them.
       */
      traces?: MemoryTraces;
      /** How long a claim on a run lasts unrenewed (see `RUN_CLAIM_LEASE_MS`, its default). */
      claimLeaseMs?: number;
    } = {},
  ) {
    this.keepRuns = options.keepRuns;
    this.claimLeaseMs = options.claimLeaseMs ?? RUN_CLAIM_LEASE_MS;
    this.traces = options.traces;
    this.onTraceError =
      options.onTraceError ??
      ((cause, runIds) =>
        defaultLogger.warn('trace_not_saved', {
          runs: runIds.length,
          cause: cause instanceof Error ? cause.message : String(cause),
        }));
  }

  /** Waits for queued traces to be written (a cheap check when nothing is queued). */
  private async pendingTraces(): Promise<void> {
    if (this.queued.length > 0) await this.flushTraces();
    else await this.writing;
  }

  async create(run: { id: string; kind: string; status: string; input: unknown }): Promise<void> {
    await this.db.query('INSERT INTO runs (id, kind, status, input) VALUES ($1, $2, $3, $4)', [
      run.id,
      run.kind,
      run.status,
      storableJson(run.input ?? {}),
    ]);
    this.countWritten(1);
  }

  /**
   * Creates a `running` run taken by this process: no other process sharing the database can
   * take it (see {@link take}) while this one renews its claim.
   */
  async start(run: { id: string; kind: string; input: unknown }): Promise<RunHold> {
    const hold = await createTakenRun(
      this.db,
      { id: run.id, kind: run.kind, input: storableJson(run.input ?? {}) },
      this.claimLeaseMs,
    );
    this.countWritten(1);
    return hold;
  }

  /**
   * Takes run `id` to work on it (a resume), atomically among every process sharing the
   * database: a {@link RunHold} for the one that wins; for the others, or when the run is done,
   * its status and when its claim lapses; `undefined` when there is no such run. A claim whose
   * process died lapses after the lease, so such a run is never blocked for good.
   */
  async take(id: string): Promise<RunHold | RunBusy | undefined> {
    return takeRun(this.db, id, this.claimLeaseMs);
  }

  async update(id: string, patch: { status: string; output?: unknown }): Promise<void> {
    await this.db.query(
      'UPDATE runs SET status = $2, output = COALESCE($3, output), updated_at = now() WHERE id = $1',
      [id, patch.status, patch.output === undefined ? null : storableJson(patch.output)],
    );
  }

  /**
   * Moves a run from status `from` to `to` only if it is still in `from`: true for the one caller
   * that wins (so two server processes never resume the same paused run twice).
   */
  async claim(id: string, from: string, to: string): Promise<boolean> {
    const { rows } = await this.db.query<{ id: string }>(
      'UPDATE runs SET status = $3, updated_at = now() WHERE id = $1 AND status = $2 RETURNING id',
      [id, from, to],
    );
    return rows.length === 1;
  }

  /** Creates the run, or replaces its status and output (a conversation saved after each turn). */
  async put(run: {
    id: string;
    kind: string;
    status: string;
    input: unknown;
    output: unknown;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO runs (id, kind, status, input, output) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, output = EXCLUDED.output, updated_at = now()`,
      [
        run.id,
        run.kind,
        run.status,
        storableJson(run.input ?? {}),
        storableJson(run.output ?? null),
      ],
    );
    this.countWritten(1);
  }

  /**
   * Appends `items` to the list at `output[key]` of run `id` in one statement, creating the run
   * with them when it is absent: turns of one conversation saved at once (two requests, or two
   * processes sharing a database) each keep theirs, where writing the whole list back kept only
   * the last writer's.
   *
   * @example
   * await runs.appendToList({ id, kind: 'code-session', status: 'open', input: { session } }, 'messages', turn);
   */
  async appendToList(
    run: { id: string; kind: string; status: string; input: unknown },
    key: string,
    items: unknown[],
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO runs (id, kind, status, input, output)
       VALUES ($1, $2, $3, $4, jsonb_build_object($5::text, $6::jsonb))
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status,
         output = jsonb_set(
           CASE WHEN jsonb_typeof(runs.output) = 'object' THEN runs.output ELSE '{}'::jsonb END,
           ARRAY[$5::text],
           CASE WHEN jsonb_typeof(runs.output -> $5::text) = 'array'
             THEN runs.output -> $5::text ELSE '[]'::jsonb END || $6::jsonb
         ),
         updated_at = now()`,
      [run.id, run.kind, run.status, storableJson(run.input ?? {}), key, storableJson(items)],
    );
    this.countWritten(1);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    await this.pendingTraces();
    const { rows } = await this.db.query<{
      id: string;
      kind: string;
      status: string;
      input: unknown;
      output: unknown;
    }>('SELECT id, kind, status, input, output FROM runs WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return this.traces?.run(id);
    return { ...row, input: json(row.input), output: json(row.output) };
  }

  async saveTask(task: RunTaskRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO run_tasks (run_id, task_id, status, output) VALUES ($1, $2, $3, $4)
       ON CONFLICT (run_id, task_id) DO UPDATE SET status = EXCLUDED.status, output = EXCLUDED.output, updated_at = now()`,
      [task.runId, task.taskId, task.status, storableJson(task.output ?? null)],
    );
  }

  async tasks(runId: string): Promise<RunTaskRecord[]> {
    const { rows } = await this.db.query<{
      run_id: string;
      task_id: string;
      status: string;
      output: unknown;
    }>('SELECT run_id, task_id, status, output FROM run_tasks WHERE run_id = $1 ORDER BY task_id', [
      runId,
    ]);
    return rows.map((row) => ({
      runId: row.run_id,
      taskId: row.task_id,
      status: row.status,
      output: json(row.output),
    }));
  }

  /**
   * Queues the spans of a finished run for the store, creating the run when it is not stored yet
   * (an answer is recorded as a `kind: 'answer'` run whose id is its query id). Nothing is written
   * on the caller's path: queued traces are written together, in one transaction, within
   * {@link TRACE_FLUSH_DELAY_MS} (sooner once {@link TRACE_FLUSH_SPANS} spans wait), and before
   * this repo reads a run or its spans and before the store closes, so a reader of this process
   * always sees them. Spans already stored for the run are kept; a span id seen again is ignored.
   * With `traces` (a `memory://` store) they go there at once and the engine is not written.
   */
  recordTrace(run: TracedRun, spans: readonly SpanRecord[]): void {
    if (this.traces) {
      this.traces.record(run, spans);
      return;
    }
    if (this.queuedSpans + this.flushingSpans + spans.length > MAX_WAITING_TRACE_SPANS) {
      this.dropped.push(run.id);
      return;
    }
    this.queued.push({ run, spans });
    this.queuedSpans += spans.length;
    if (this.queuedSpans >= TRACE_FLUSH_SPANS) {
      void this.flushTraces();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flushTraces(), TRACE_FLUSH_DELAY_MS);
      // A queued trace must not keep a finished process alive; closing the store writes it.
      this.timer.unref?.();
    }
  }

  /**
   * Writes every queued trace now (see {@link recordTrace}). A batch that fails to write is
   * reported to `onTraceError` and dropped: a lost trace must not fail the answers after it.
   */
  async flushTraces(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued;
    const batchSpans = this.queuedSpans;
    this.queued = [];
    this.queuedSpans = 0;
    this.flushingSpans += batchSpans;
    if (this.dropped.length > 0) {
      // Reported once per flush, not once per trace: a server behind would flood its log.
      const dropped = this.dropped;
      this.dropped = [];
      this.onTraceError(
        new Error(
          `the trace writer was ${MAX_WAITING_TRACE_SPANS} spans behind (the store writes slower than answers come); these traces were dropped`,
        ),
        dropped,
      );
    }
    // Writes stay in order: a flush waits for the one before it, so a reader never overtakes.
    const previous = this.writing;
    const write = (async () => {
      await previous;
      try {
        if (batch.length === 0) return;
        try {
          await this.writeTraces(batch);
        } catch (cause) {
          this.onTraceError(
            cause,
            batch.map((entry) => entry.run.id),
          );
        }
        await this.pruneIfDue(batch.length);
      } finally {
        this.flushingSpans -= batchSpans;
      }
    })();
    this.writing = write;
    await write;
  }

  /**
   * Counts runs written outside a trace batch (created or put) toward the next deletion of old
   * ones, which runs after the writes before it, not on the caller's path.
   */
  private countWritten(runs: number): void {
    if (this.keepRuns === undefined) return;
    const previous = this.writing;
    this.writing = (async () => {
      await previous;
      await this.pruneIfDue(runs);
    })();
  }

  /**
   * Deletes the runs beyond `keepRuns` once enough were written since the last time: one statement
   * per {@link PRUNE_RUNS_EVERY} runs, on the writer's path after the writes before, never an
   * answer's. The embedded
   * engine has no autovacuum, so the freed rows are vacuumed there for new ones to reuse.
   */
  private async pruneIfDue(written: number): Promise<void> {
    if (this.keepRuns === undefined) return;
    this.runsSincePrune += written;
    if (this.runsSincePrune < pruneInterval(this.keepRuns, PRUNE_RUNS_EVERY)) return;
    this.runsSincePrune = 0;
    try {
      await this.db.query(DELETE_OLD_RUNS, [this.keepRuns]);
      if (this.db.engine === 'pglite')
        await this.db.exec('VACUUM runs, run_spans, run_tasks, owners');
    } catch (cause) {
      defaultLogger.warn('runs_not_pruned', {
        cause: cause instanceof Error ? cause.message : String(cause),
      });
    }
  }

  private async writeTraces(
    batch: readonly { run: TracedRun; spans: readonly SpanRecord[] }[],
  ): Promise<void> {
    const runs = batch.map(({ run }) => ({
      id: run.id,
      kind: run.kind,
      status: run.status,
      input: run.input ?? {},
    }));
    const spans = batch.flatMap(({ run, spans: list }) =>
      list.map((span) => ({
        run_id: run.id,
        span_id: span.spanId,
        parent_id: span.parentId,
        name: span.name,
        start_ms: span.startMs,
        duration_ms: span.durationMs,
        status: span.status,
        error: span.error ?? null,
        attributes: span.attributes,
      })),
    );
    const statements: Statement[] = [
      {
        sql: `INSERT INTO runs (id, kind, status, input)
         SELECT r.id, r.kind, r.status, r.input
         FROM jsonb_to_recordset($1::jsonb) AS r(id TEXT, kind TEXT, status TEXT, input JSONB)
         ON CONFLICT (id) DO NOTHING`,
        params: [storableJson(runs)],
      },
    ];
    if (spans.length > 0)
      statements.push({
        sql: `INSERT INTO run_spans (run_id, span_id, parent_id, name, start_ms, duration_ms, status, error, attributes)
         SELECT s.run_id, s.span_id, s.parent_id, s.name, s.start_ms, s.duration_ms, s.status, s.error, s.attributes
         FROM jsonb_to_recordset($1::jsonb) AS s(run_id TEXT, span_id TEXT, parent_id TEXT, name TEXT, start_ms DOUBLE PRECISION, duration_ms DOUBLE PRECISION, status TEXT, error TEXT, attributes JSONB)
         ON CONFLICT (run_id, span_id) DO NOTHING`,
        params: [storableJson(spans)],
      });
    // One batch: one round trip, and on the embedded engine one commit with other batches.
    await runBatch(this.db, statements);
  }

  /** The recorded spans of a run, in start order. */
  async spans(runId: string): Promise<SpanRecord[]> {
    if (this.traces) return this.traces.spans(runId);
    await this.pendingTraces();
    const { rows } = await this.db.query<{
      span_id: string;
      parent_id: string | null;
      name: string;
      start_ms: number | string;
      duration_ms: number | string;
      status: string;
      error: string | null;
      attributes: unknown;
    }>(
      'SELECT span_id, parent_id, name, start_ms, duration_ms, status, error, attributes FROM run_spans WHERE run_id = $1 ORDER BY start_ms, span_id',
      [runId],
    );
    return rows.map((row) => ({
      spanId: row.span_id,
      parentId: row.parent_id,
      name: row.name,
      startMs: Number(row.start_ms),
      durationMs: Number(row.duration_ms),
      status: row.status === 'error' ? 'error' : 'ok',
      ...(row.error ? { error: row.error } : {}),
      attributes: json(row.attributes) as SpanRecord['attributes'],
    }));
  }
}
