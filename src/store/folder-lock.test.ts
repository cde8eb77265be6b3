import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { acquireFolderLock, LOCK_FILE_NAME, thisLockHolder } from './folder-lock.js';
import { openPgliteDb } from './pglite-db.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const folder = () => mkdtempSync(join(tmpdir(), 'cohort-lock-'));

/** A live process that is not this one, recorded in a lock file as the holder of `dir`. */
async function lockedByAnotherProcess(dir: string): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid as number;
  writeFileSync(
    join(dir, LOCK_FILE_NAME),
    JSON.stringify({ pid, host: hostname(), startedAt: Date.now(), command: 'cohort serve' }),
  );
  return pid;
}

describe('data-folder lock', () => {
  it.skipIf(process.platform !== 'linux')(
    'refuses a live holder whose recorded start time is off because the clock was set since',
    async () => {
      // startedAt is read off the wall clock: a server started before NTP stepped the clock by
      // a minute was taken for a dead one, and a second process opened the folder beside it.
      const dir = folder();
      const pid = await lockedByAnotherProcess(dir);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      writeFileSync(
        join(dir, LOCK_FILE_NAME),
        JSON.stringify({
          pid,
          host: hostname(),
          startedAt: Date.now() - 60_000,
          startTicks,
          command: 'cohort serve',
        }),
      );
      expect(() => acquireFolderLock(dir)).toThrow(`is in use by process ${pid}`);
    },
  );

  it.skipIf(process.platform !== 'linux')('records its start in clock ticks', () => {
    const dir = folder();
    const lock = acquireFolderLock(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({
      pid: process.pid,
      startTicks: expect.any(Number),
    });
    lock.release();
  });

  it.skipIf(process.platform !== 'linux')(
    'takes over a lock whose holder was killed and is not reaped yet (a zombie)',
    async () => {
      // A harness that kills `cohort serve` with SIGKILL and starts it again before it waits for
      // the child leaves the pid a zombie: the restart was refused, "in use by process …".
      const dir = folder();
      const pid = await lockedByAnotherProcess(dir);
      process.kill(pid, 'SIGKILL');
      // Synchronously, so this process does not reap its child before the lock is taken.
      const state = () => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch {
          return 'gone';
        }
      };
      const deadline = Date.now() + 5_000;
      while (state() !== 'Z' && Date.now() < deadline);
      expect(state()).toBe('Z');
      const lock = acquireFolderLock(dir);
      expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
      lock.release();
    },
  );

  it('refuses a folder held by a live process, naming it and PostgreSQL, at once', async () => {
    const dir = folder();
    const pid = await lockedByAnotherProcess(dir);
    const started = performance.now();
    let error: unknown;
    try {
      acquireFolderLock(dir);
    } catch (caught) {
      error = caught;
    }
    expect(performance.now() - started).toBeLessThan(1000);
    expect(isCohortError(error, 'conflict')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`process ${pid}`);
    expect(message).toContain('cohort serve');
    expect(message).toContain('DATABASE_URL');
  });

  it('opens nothing in a held folder: no database files are written', async () => {
    const dir = folder();
    await lockedByAnotherProcess(dir);
    await expect(openPgliteDb(dir)).rejects.toThrow(/in use by process/);
    expect(readdirSync(dir)).toEqual([LOCK_FILE_NAME]);
  });

  it('takes over the lock of a process that is gone', () => {
    const dir = folder();
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), startedAt: 0, command: 'x' }),
    );
    const lock = acquireFolderLock(dir);
    const holder = JSON.parse(readFileSync(lock.path, 'utf8')) as { pid: number };
    expect(holder.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('does not delete the lock another process wrote while this one was taking over a stale lock', async () => {
    // Two processes restarting after a kill -9 both find the dead holder's lock. The faster one
    // removes it and writes its own; the slower one, which had judged the old lock stale, used to
    // delete that new lock and write its own: both opened the folder (seen with 8 processes
    // started at once on a stale lock).
    const dir = folder();
    const deadPid = 2 ** 22 + 54321;
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: deadPid, host: hostname(), startedAt: 0, command: 'x' }),
    );
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      stdio: 'ignore',
    });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    const faster = JSON.stringify({
      pid: child.pid,
      host: hostname(),
      startedAt: Date.now(),
      command: 'cohort serve',
    });
    const kill = process.kill.bind(process);
    let tookOver = false;
    const spy = vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      // Just after this process looked at the dead holder, the other one takes the lock over.
      if (pid === deadPid && !tookOver) {
        tookOver = true;
        writeFileSync(join(dir, LOCK_FILE_NAME), faster);
      }
      return kill(pid, signal);
    });
    try {
      expect(() => acquireFolderLock(dir)).toThrow(`process ${child.pid}`);
    } finally {
      spy.mockRestore();
    }
    expect(tookOver).toBe(true);
    expect(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')).toBe(faster);
  });

  it('takes over a lock whose pid was reused by a process started at another time', async () => {
    const dir = folder();
    const pid = await lockedByAnotherProcess(dir);
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid, host: hostname(), startedAt: Date.now() - 3_600_000, command: 'x' }),
    );
    // Only Linux reports start times; elsewhere a live pid always counts as the holder.
    if (!existsSync(`/proc/${pid}/stat`)) return;
    acquireFolderLock(dir).release();
  });

  it('reads a lock file whose pid or start time is not one it writes as unreadable', async () => {
    // A start time written as text made the message that names the holder throw "Invalid time
    // value" (`cohort route: unexpected error`), and pid -1 (kill(-1, 0) succeeds) was a live
    // holder for ever. Such a file is not cohort's: it is taken over once old, as an unreadable one.
    const dir = folder();
    const pid = await lockedByAnotherProcess(dir);
    const path = join(dir, LOCK_FILE_NAME);
    writeFileSync(
      path,
      JSON.stringify({ pid, host: hostname(), startedAt: '2026-11-28T00:00:00Z', command: 'x' }),
    );
    expect(() => acquireFolderLock(dir)).toThrow(/in use by another process/);
    for (const holder of [
      { pid: -1, host: hostname(), startedAt: 0, command: 'x' },
      { pid: 0, host: hostname(), startedAt: 0, command: 'x' },
      { pid: 1.5, host: hostname(), startedAt: 0, command: 'x' },
      { pid, host: hostname(), startedAt: '2026-11-28T00:00:00Z', command: 'x' },
      { pid, host: hostname(), startedAt: 9e15, command: 'x' },
    ]) {
      writeFileSync(path, JSON.stringify(holder));
      const minuteAgo = new Date(Date.now() - 60_000);
      utimesSync(path, minuteAgo, minuteAgo);
      acquireFolderLock(dir).release();
    }
  });

  it('leaves no empty lock behind when it cannot write the lock, and says why', async () => {
    // On a full disk the lock file was created but not written: the error was the system's, and
    // the empty file left behind made the next start say the folder was "in use by another
    // process". A file size limit of 0 (ulimit -f 0, SIGXFSZ ignored) fails the write the same way.
    const dir = folder();
    const script = `import { acquireFolderLock } from ${JSON.stringify(new URL('./folder-lock.ts', import.meta.url).pathname)};
try { acquireFolderLock(${JSON.stringify(dir)}); console.log('locked'); } catch (error) { console.log(error.message); }`;
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        `trap '' XFSZ; ulimit -f 0; exec "$0" --import tsx --input-type=module -e "$1"`,
        process.execPath,
        script,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    expect(out).toMatch(/Cannot write in the data folder .* \(EFBIG\)/);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);

  it('refuses a second open in the same process and allows it after release', () => {
    const dir = folder();
    const lock = acquireFolderLock(dir);
    expect(() => acquireFolderLock(dir)).toThrow(/this process has it open already/);
    lock.release();
    acquireFolderLock(dir).release();
  });

  it('keeps a lock held by another host: its pid cannot be checked from here', () => {
    const dir = folder();
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: 1, host: `${hostname()}-elsewhere`, startedAt: 0, command: 'x' }),
    );
    expect(() => acquireFolderLock(dir)).toThrow(/elsewhere/);
  });

  it('releases the lock when the store closes', async () => {
    const dir = folder();
    const db = await openPgliteDb(dir);
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(true);
    await db.close();
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
    const again = await openPgliteDb(dir);
    await again.close();
  }, 60_000);

  it('names the command it is given, and hands the lock over to another holder in one rename', async () => {
    const dir = folder();
    const lock = acquireFolderLock(dir, { command: 'cohort serve --port 8787' });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({
      pid: process.pid,
      command: 'cohort serve --port 8787',
    });
    const other = await lockedByAnotherProcess(folder());
    const holder = { pid: other, host: hostname(), startedAt: Date.now(), command: 'cohort serve' };
    lock.handOver(holder);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8'))).toEqual(holder);
    expect(readdirSync(dir)).toEqual([LOCK_FILE_NAME]);
    // Let go of here: releasing does not remove the new holder's lock, and this process is now
    // refused like any other, naming the holder.
    lock.release();
    expect(() => acquireFolderLock(dir)).toThrow(`process ${other}`);
  });

  it('takes over, as its own, a lock handed over to this process', () => {
    const dir = folder();
    const child = acquireFolderLock(dir, { command: 'helper' });
    // What a child process preparing the folder does last: name its parent (here, this process).
    child.handOver(thisLockHolder());
    const lock = acquireFolderLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
