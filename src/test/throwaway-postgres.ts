import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A PostgreSQL cluster of the test's own, on its own port, that the test may stop and restart. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Stops the server (fast shutdown: every connection is terminated). */
  stop(): void;
  /** Starts it again on the same port and data folder. */
  start(): void;
  /** Stops it for good and deletes its folder. */
  destroy(): void;
}

/** The folder of PostgreSQL's server programs (initdb, pg_ctl), or undefined when not installed. */
export function postgresBinDir(): string | undefined {
  for (const candidate of ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin']) {
    if (existsSync(join(candidate, 'pg_ctl'))) return candidate;
  }
  const found = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  return found ? dirname(realpathSync(found)) : undefined;
}

/** Why a throwaway cluster cannot be made here, or undefined when it can. */
export function throwawayPostgresSkip(): string | undefined {
  if (!postgresBinDir()) return 'PostgreSQL server programs (initdb, pg_ctl) are not installed';
  if (process.getuid?.() === 0) {
    const id = spawnSync('id', ['-u', 'postgres']);
    if (id.status !== 0) return 'running as root and there is no postgres user to run a cluster';
  }
  return undefined;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * initdb's and starts a PostgreSQL cluster in a fresh folder under the temporary folder, on a free
 * loopback port, trust authentication (as user `postgres` when running as root). Never touches any
 * other server. Throws when {@link throwawayPostgresSkip} says it cannot.
 *
 * @example
 * const cluster = await startThrowawayPostgres();
 * cluster.stop(); cluster.start(); cluster.destroy();
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('pg_ctl not found');
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'cohort-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const argv = [join(bin, program), ...args];
    const result = root
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', argv.map(quote).join(' ')], {
          encoding: 'utf8',
        })
      : spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`${program} failed: ${result.stderr || result.stdout || result.error}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    destroy() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
