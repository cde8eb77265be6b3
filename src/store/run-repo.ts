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
}
