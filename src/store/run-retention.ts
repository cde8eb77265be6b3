/**
 * Statuses of a run someone may still continue (running, waiting for an approval, interrupted):
 * the `keepRuns` limit never deletes such a run, nor a coding conversation ({@link SESSION_RUN_KIND}).
 */
export const CONTINUABLE_RUN_STATUSES: readonly string[] = [
  'running',
  'awaiting_approval',
  'interrupted',
];

/** `runs.kind` of a coding conversation, a session its user may continue (coding's `CODE_SESSION_KIND`). */
export const SESSION_RUN_KIND = 'code-session';

/**
 * True when the `keepRuns` limit may delete `run` once newer runs push it out: not a coding
 * conversation and not a run someone may continue. The engine's `DELETE_OLD_RUNS` and the
 * in-memory trace store (`MemoryTraces`) both keep to this rule.
 *
 * @example
 * mayDropRun({ kind: 'answer', status: 'done' }); // true
 */
export function mayDropRun(run: { kind: string; status: string }): boolean {
  return run.kind !== SESSION_RUN_KIND && !CONTINUABLE_RUN_STATUSES.includes(run.status);
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Deletes the old runs {@link mayDropRun} allows, keeping the newest `$1` of them; their spans
 * and tasks go with them (`ON DELETE CASCADE`), and so does the record of who owned them.
 */
export const DELETE_OLD_RUNS = `WITH gone AS (DELETE FROM runs WHERE id IN (
  SELECT id FROM runs
  WHERE kind <> ${sqlText(SESSION_RUN_KIND)} AND status NOT IN (${CONTINUABLE_RUN_STATUSES.map(sqlText).join(', ')})
  ORDER BY created_at DESC, id DESC OFFSET $1) RETURNING id)
  DELETE FROM owners WHERE kind = 'run' AND id IN (SELECT id FROM gone)`;
