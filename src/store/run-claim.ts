import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from './db.js';
import { storableJson } from './storable-text.js';

/**
 * How long a claim on a run lasts without being renewed (milliseconds): a process that dies
 * (kill -9, a lost machine) stops renewing, and another may take the run this long after the
 * last renewal. Renewed every third of it while the run goes on.
 */
export const RUN_CLAIM_LEASE_MS = 30_000;

/** A run this process works on, taken in the store (see {@link takeRun}). */
export interface RunHold {
  readonly runId: string;
  /**
   * Aborted when the claim was lost: a renewal found the run taken by another process (this one
   * stalled past the lease) or could not reach the store until the lease ran out.
   */
  readonly lost: AbortSignal;
  /**
   * Writes the run's last status (and output) and gives the claim up, in one statement: false,
   * writing nothing, when the claim was lost (the run is another process's now).
   */
  finish(patch: { status: string; output?: unknown }): Promise<boolean>;
  /** Gives the claim up without writing the run (a run that failed); safe to call twice. */
  release(): Promise<void>;
}

/** Why a run could not be taken: another process holds it, or it is done. */
export interface RunBusy {
  /** The run's status (`done`: its report is stored). */
  status: string;
  /** When the holder's claim lapses unless it renews it. */
  claimedUntil: Date | undefined;
}

/**
 * This process's name in claims: on an embedded engine (one process at a time, its folder locked)
 * a claim under another process's name was left by a process that is gone.
 */
const HOLDER = `${hostname()} pid ${process.pid} ${randomUUID().slice(0, 8)}`;

/** The claim condition: unclaimed, lapsed, or (embedded engine) left by a process now gone. */
const TAKEABLE = `(claimed_until IS NULL OR claimed_until <= now()
  OR ($4::boolean AND split_part(claimed_by, ' #', 1) <> $5))`;

/**
 * Takes run `id` for this process in one statement, if no live claim holds it and it is not
 * done, setting its status to `running`: the one caller that wins among processes sharing the
 * database gets a {@link RunHold} (renewed until finished or released); the others get who holds
 * it until when. `undefined` when the store has no such run.
 *
 * @example
 * const hold = await takeRun(db, runId);
 * if (hold && 'finish' in hold) await hold.finish({ status: 'done', output });
 */
export async function takeRun(
  db: Db,
  id: string,
  leaseMs = RUN_CLAIM_LEASE_MS,
): Promise<RunHold | RunBusy | undefined> {
  const token = `${HOLDER} #${randomUUID()}`;
  const { rows } = await db.query<{ id: string }>(
    `UPDATE runs SET status = 'running', claimed_by = $2,
       claimed_until = now() + $3::integer * interval '1 millisecond', updated_at = now()
     WHERE id = $1 AND status <> 'done' AND ${TAKEABLE} RETURNING id`,
    [id, token, leaseMs, db.engine === 'pglite', HOLDER],
  );
  if (rows.length === 1) return holdRun(db, id, token, leaseMs);
  const found = await db.query<{ status: string; claimed_until: Date | string | null }>(
    'SELECT status, claimed_until FROM runs WHERE id = $1',
    [id],
  );
  const row = found.rows[0];
  if (!row) return undefined;
  return {
    status: row.status,
    claimedUntil: row.claimed_until === null ? undefined : new Date(row.claimed_until),
  };
}

/**
 * Creates run `run` already taken by this process (a new run: no other process may resume it
 * while it runs).
 */
export async function createTakenRun(
  db: Db,
  run: { id: string; kind: string; input: string },
  leaseMs = RUN_CLAIM_LEASE_MS,
): Promise<RunHold> {
  const token = `${HOLDER} #${randomUUID()}`;
  await db.query(
    `INSERT INTO runs (id, kind, status, input, claimed_by, claimed_until)
     VALUES ($1, $2, 'running', $3, $4, now() + $5::integer * interval '1 millisecond')`,
    [run.id, run.kind, run.input, token, leaseMs],
  );
  return holdRun(db, run.id, token, leaseMs);
}

function holdRun(db: Db, runId: string, token: string, leaseMs: number): RunHold {
  const lost = new AbortController();
  let released = false;
  /** Finished or released: the claim is given up (or lost) and nothing is left to write. */
  let ended = false;
  // A renewal that cannot reach the store is retried at the next tick; the claim is lost once
  // the lease has run out since the last renewal that landed (another process may have it now).
  let renewedAt = Date.now();
  const renew = async () => {
    try {
      const { rows } = await db.query(
        `UPDATE runs SET claimed_until = now() + $3::integer * interval '1 millisecond'
         WHERE id = $1 AND claimed_by = $2 RETURNING id`,
        [runId, token, leaseMs],
      );
      if (released) return;
      if (rows.length === 1) renewedAt = Date.now();
      else lose('another process took the run after this one stopped renewing its claim');
    } catch (cause) {
      if (!released && Date.now() - renewedAt >= leaseMs)
        lose(`its claim could not be renewed (${String(cause)})`);
    }
  };
  const lose = (reason: string) => {
    stop();
    lost.abort(reason);
  };
  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
  // A claim must not keep a finished process alive.
  timer.unref?.();
  const stop = () => {
    released = true;
    clearInterval(timer);
  };
  return {
    runId,
    lost: lost.signal,
    async finish(patch) {
      ended = true;
      stop();
      const { rows } = await db.query(
        `UPDATE runs SET status = $3, output = COALESCE($4, output), claimed_by = NULL,
           claimed_until = NULL, updated_at = now()
         WHERE id = $1 AND claimed_by = $2 RETURNING id`,
        [
          runId,
          token,
          patch.status,
          patch.output === undefined ? null : storableJson(patch.output),
        ],
      );
      return rows.length === 1;
    },
    async release() {
      if (ended) return;
      ended = true;
      stop();
      await db.query(
        'UPDATE runs SET claimed_by = NULL, claimed_until = NULL WHERE id = $1 AND claimed_by = $2',
        [runId, token],
      );
    },
  };
}
