import type { SpanRecord } from '../telemetry/index.js';
import type { Db } from './db.js';

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

const json = (value: unknown) =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value;

/** Runs and their tasks. */
export class RunRepo {
  constructor(private readonly db: Db) {}

  async create(run: { id: string; kind: string; status: string; input: unknown }): Promise<void> {
    await this.db.query('INSERT INTO runs (id, kind, status, input) VALUES ($1, $2, $3, $4)', [
      run.id,
      run.kind,
      run.status,
      JSON.stringify(run.input ?? {}),
    ]);
  }

  async update(id: string, patch: { status: string; output?: unknown }): Promise<void> {
    await this.db.query(
      'UPDATE runs SET status = $2, output = COALESCE($3, output), updated_at = now() WHERE id = $1',
      [id, patch.status, patch.output === undefined ? null : JSON.stringify(patch.output)],
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
        JSON.stringify(run.input ?? {}),
        JSON.stringify(run.output ?? null),
      ],
    );
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const { rows } = await this.db.query<{
      id: string;
      kind: string;
      status: string;
      input: unknown;
      output: unknown;
    }>('SELECT id, kind, status, input, output FROM runs WHERE id = $1', [id]);
    const row = rows[0];
    return row && { ...row, input: json(row.input), output: json(row.output) };
  }

  async saveTask(task: RunTaskRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO run_tasks (run_id, task_id, status, output) VALUES ($1, $2, $3, $4)
       ON CONFLICT (run_id, task_id) DO UPDATE SET status = EXCLUDED.status, output = EXCLUDED.output, updated_at = now()`,
      [task.runId, task.taskId, task.status, JSON.stringify(task.output ?? null)],
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
   * Records the spans of a run in one statement, creating the run when it is not stored yet (an
   * answer is recorded as a `kind: 'answer'` run whose id is its query id). Spans already stored
   * for the run are kept; a span id seen again is ignored.
   */
  async saveTrace(
    run: { id: string; kind: string; status: string; input: unknown },
    spans: readonly SpanRecord[],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO runs (id, kind, status, input) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [run.id, run.kind, run.status, JSON.stringify(run.input ?? {})],
      );
      if (spans.length === 0) return;
      await tx.query(
        `INSERT INTO run_spans (run_id, span_id, parent_id, name, start_ms, duration_ms, status, error, attributes)
         SELECT $1, s.span_id, s.parent_id, s.name, s.start_ms, s.duration_ms, s.status, s.error, s.attributes
         FROM jsonb_to_recordset($2::jsonb) AS s(span_id TEXT, parent_id TEXT, name TEXT, start_ms DOUBLE PRECISION, duration_ms DOUBLE PRECISION, status TEXT, error TEXT, attributes JSONB)
         ON CONFLICT (run_id, span_id) DO NOTHING`,
        [
          run.id,
          JSON.stringify(
            spans.map((span) => ({
              span_id: span.spanId,
              parent_id: span.parentId,
              name: span.name,
              start_ms: span.startMs,
              duration_ms: span.durationMs,
              status: span.status,
              error: span.error ?? null,
              attributes: span.attributes,
            })),
          ),
        ],
      );
    });
  }

  /** The recorded spans of a run, in start order. */
  async spans(runId: string): Promise<SpanRecord[]> {
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
