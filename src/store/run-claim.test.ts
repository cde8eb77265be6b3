import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceScript } from '../test/source-script.js';
import type { Db } from './db.js';
import { openPgliteDb } from './pglite-db.js';
import { openPostgresDb } from './postgres-db.js';
import type { RunBusy, RunHold } from './run-claim.js';
import { createStore, type Store } from './store.js';

const LEASE_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function held(result: RunHold | RunBusy | undefined): RunHold {
  if (!result || !('finish' in result)) throw new Error(`not taken: ${JSON.stringify(result)}`);
  return result;
}

function busy(result: RunHold | RunBusy | undefined): RunBusy {
  if (!result || 'finish' in result) throw new Error('taken, expected busy');
  return result;
}

/**
 * `db`, and a kill switch: once killed, nothing it sends reaches the database any more, as with a
 * process killed with SIGKILL (its claim is neither renewed nor given up) or stalled (`revive`).
 */
function killable(db: Db): { db: Db; kill: () => void; revive: () => void } {
  let dead = false;
  const gone = () => Promise.reject(new Error('the process is gone'));
  return {
    kill: () => (dead = true),
    revive: () => (dead = false),
    db: {
      ...db,
      query: (sql, params) => (dead ? gone() : db.query(sql, params)),
      exec: (sql) => (dead ? gone() : db.exec(sql)),
      close: async () => undefined,
    },
  };
}

/** Two stores (two processes' worth of repos) over `db` and `other` (the same database). */
async function twoStores(db: Db, other: Db = db): Promise<[Store, Store]> {
  return [
    await createStore(db, { claimLeaseMs: LEASE_MS }),
    await createStore(other, { claimLeaseMs: LEASE_MS }),
  ];
}

describe('run claims: two stores over one database', () => {
  it('lets one store take a run; the other is refused until it finishes, then sees it done', async () => {
    const db = await openPgliteDb('memory://');
    const [a, b] = await twoStores(db);
    try {
      const hold = await a.runs.start({ id: 'r1', kind: 'research', input: { q: 1 } });
      const refused = busy(await b.runs.take('r1'));
      expect(refused.status).toBe('running');
      expect(refused.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
      // Still refused after several renewals (longer than one lease).
      await sleep(LEASE_MS * 2);
      busy(await b.runs.take('r1'));
      expect(await hold.finish({ status: 'done', output: { report: 'A' } })).toBe(true);
      expect(busy(await b.runs.take('r1'))).toEqual({ status: 'done', claimedUntil: undefined });
      expect((await b.runs.get('r1'))?.output).toEqual({ report: 'A' });
      expect(await b.runs.take('missing')).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('hands an interrupted run to one resumer at a time, and to the next once released', async () => {
    const db = await openPgliteDb('memory://');
    const [a, b] = await twoStores(db);
    try {
      await a.runs.create({ id: 'r2', kind: 'research', status: 'interrupted', input: {} });
      const [first, second] = await Promise.all([a.runs.take('r2'), b.runs.take('r2')]);
      expect([first, second].filter((result) => result && 'finish' in result)).toHaveLength(1);
      const winner = held(first && 'finish' in first ? first : second);
      expect((await b.runs.get('r2'))?.status).toBe('running');
      await winner.release();
      const next = held(await b.runs.take('r2'));
      await next.finish({ status: 'interrupted' });
    } finally {
      await db.close();
    }
  });

  it('lets a claim whose process died lapse after the lease, and refuses the dead one its report', async () => {
    const db = await openPgliteDb('memory://');
    const doomed = killable(db);
    const [a, b] = await twoStores(doomed.db, db);
    try {
      const hold = await a.runs.start({ id: 'r3', kind: 'research', input: {} });
      doomed.kill();
      const refused = busy(await b.runs.take('r3'));
      // Not before the lease runs out: the process may only be slow.
      expect(refused.claimedUntil!.getTime() - Date.now()).toBeGreaterThan(0);
      await sleep(refused.claimedUntil!.getTime() - Date.now() + 50);
      const taken = held(await b.runs.take('r3'));
      // The killed holder notices once its lease has gone by without a renewal.
      await sleep(LEASE_MS);
      expect(hold.lost.aborted).toBe(true);
      await taken.finish({ status: 'done', output: { report: 'B' } });
      expect((await b.runs.get('r3'))?.output).toEqual({ report: 'B' });
    } finally {
      await db.close();
    }
  });

  it('does not let a stalled holder overwrite the report of the process that took over', async () => {
    const db = await openPgliteDb('memory://');
    const stalled = killable(db);
    const [a, b] = await twoStores(stalled.db, db);
    try {
      // Renewals that cannot land are a stall (SIGSTOP, a long pause of the event loop).
      const hold = await a.runs.start({ id: 'r4', kind: 'research', input: {} });
      stalled.kill();
      await sleep(LEASE_MS + 100);
      const taken = held(await b.runs.take('r4'));
      expect(await taken.finish({ status: 'done', output: { report: 'B' } })).toBe(true);
      stalled.revive();
      expect(await hold.finish({ status: 'done', output: { report: 'A' } })).toBe(false);
      expect((await b.runs.get('r4'))?.output).toEqual({ report: 'B' });
    } finally {
      await db.close();
    }
  });
});

/** The store's modules, for a child process (see sourceScript). */
const STORE_TS = pathToFileURL(fileURLToPath(new URL('./store.ts', import.meta.url))).href;

/**
 * Another OS process that opens the store at `target` (a data folder, or a PostgreSQL URL), starts
 * run `id` (taking it) and keeps renewing its claim until it is killed.
 */
async function holderProcess(
  engine: 'pglite' | 'postgres',
  target: string,
  id: string,
  leaseMs: number,
): Promise<ChildProcess> {
  const open = engine === 'pglite' ? 'openPgliteDb' : 'openPostgresDb';
  const script = `
    const store = await import(${JSON.stringify(STORE_TS)});
    const { ${open} } = await import(${JSON.stringify(STORE_TS.replace(/store\.ts$/, `${engine}-db.ts`))});
    const opened = await store.createStore(await ${open}(${JSON.stringify(target)}), { claimLeaseMs: ${leaseMs} });
    await opened.runs.start({ id: ${JSON.stringify(id)}, kind: 'research', input: {} });
    process.stdout.write('taken\\n');
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, [await sourceScript(script)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      if (data.toString().includes('taken')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before taking`)));
  });
  return child;
}

/** Kills `child` with SIGKILL (no chance to give its claim up) and waits for it to be gone. */
async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('run claims on an embedded data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-run-claim-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a run whose process was killed -9 to the next process at once', async () => {
    // The folder is locked to one process, so a claim of another process found in it is a dead
    // one's: no wait for the lease (30 s here) to run out.
    const child = await holderProcess('pglite', dir, 'r5', 30_000);
    await killHard(child);
    const store = await createStore(await openPgliteDb(dir));
    try {
      const hold = held(await store.runs.take('r5'));
      busy(await store.runs.take('r5'));
      await hold.release();
    } finally {
      await store.close();
    }
  }, 30_000);
});

const url = process.env.COHORT_TEST_DATABASE_URL;
describe.skipIf(!url)(
  `run claims across PostgreSQL connections${url ? '' : ' (skipped: COHORT_TEST_DATABASE_URL is not set; run scripts/postgres-test-server.sh start)'}`,
  () => {
    it("lets exactly one of two pools take a run, and another once a killed holder's lease lapsed", async () => {
      const schema = `run_claim_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const separator = url?.includes('?') ? '&' : '?';
      const schemaUrl = `${url}${separator}options=-csearch_path%3D${schema}`;
      const dbA = await openPostgresDb(schemaUrl);
      const dbB = await openPostgresDb(schemaUrl);
      const doomed = killable(dbA);
      try {
        const a = await createStore(doomed.db, { claimLeaseMs: LEASE_MS });
        const b = await createStore(dbB, { claimLeaseMs: LEASE_MS });
        await a.runs.create({ id: 'p1', kind: 'research', status: 'interrupted', input: {} });
        for (let round = 0; round < 5; round += 1) {
          const results = await Promise.all([a.runs.take('p1'), b.runs.take('p1')]);
          const holds = results.filter((result) => result && 'finish' in result) as RunHold[];
          expect(holds).toHaveLength(1);
          await holds[0]!.release();
        }
        held(await a.runs.take('p1'));
        doomed.kill();
        busy(await b.runs.take('p1'));
        await sleep(LEASE_MS + 100);
        await held(await b.runs.take('p1')).finish({ status: 'done' });

        // A real process killed with SIGKILL: refused while its claim is live, taken once it lapses.
        const child = await holderProcess('postgres', schemaUrl, 'p2', 1500);
        busy(await b.runs.take('p2'));
        await killHard(child);
        const refused = busy(await b.runs.take('p2'));
        expect(refused.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
        await sleep(refused.claimedUntil!.getTime() - Date.now() + 100);
        await held(await b.runs.take('p2')).release();
      } finally {
        await dbA.close();
        await dbB.close();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    }, 30_000);
  },
);
