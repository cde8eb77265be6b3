import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAssistant } from '../assistant/index.js';
import { loadConfig, type CohortConfig } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { LOCK_FILE_NAME, openStore, UNFINISHED_FOLDER_FILE, type Store } from '../store/index.js';
import { startServeProcess } from '../test/serve-process.js';
import { snapshotCacheEnv } from '../test/fresh-folder-snapshot.js';
import { testCli } from '../test/test-cli.js';
import { PassThrough } from 'node:stream';
import { prepareNewFolderInChild, relayText } from './first-start.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A small book, so a first start stays quick. */
function smallBook(): string {
  const book = mkdtempSync(join(tmpdir(), 'cohort-first-start-book-'));
  writeFileSync(join(book, 'topics.md'), '# Topics\n\nA topic is a named bus for messages.\n');
  writeFileSync(
    join(book, 'services.md'),
    '# Services\n\nA service answers one request with one response.\n\n## Clients\n\nA client calls a service and waits for its response.\n',
  );
  return book;
}

const extractive = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/**
 * One first start prepared in the child on a new folder, made once per file: the first test checks
 * it against the serving process's own preparation, and the kill -9 test uses what it left as the
 * store of a start that was never interrupted (each child start of the sources costs seconds).
 */
let cleanStart:
  | Promise<{
      book: string;
      config: CohortConfig;
      ingested: Awaited<ReturnType<typeof prepareNewFolderInChild>>;
      lockHolder: number | undefined;
      contents: Awaited<ReturnType<typeof storeContents>>;
    }>
  | undefined;
function preparedCleanStart() {
  cleanStart ??= (async () => {
    const book = smallBook();
    const config = configFor(
      join(mkdtempSync(join(tmpdir(), 'cohort-first-start-')), 'child'),
      book,
    );
    const ingested = await prepareNewFolderInChild(config, io());
    // Read before anything opens the folder: who holds the lock right after the child is done.
    const lockHolder = lockPid(config.dataDir);
    return { book, config, ingested, lockHolder, contents: await storeContents(config) };
  })();
  return cleanStart;
}

function configFor(dataDir: string, book: string): CohortConfig {
  return loadConfig({
    env: { COHORT_DATA_DIR: dataDir, COHORT_SAMPLE_BOOK: book, ...extractive },
    cwd: tmpdir(),
  });
}

const io = () => {
  const err: string[] = [];
  return { err, cwd: process.cwd(), stderr: (text: string) => err.push(text) };
};

/** What a start reads from a store: its chunks and the saved build values, byte for byte. */
async function contents(store: Store) {
  const chunks = await store.chunks.all();
  const { rows } = await store.db.query<{ name: string; key: string; data: Uint8Array }>(
    'SELECT name, key, data FROM build_cache ORDER BY name',
  );
  return {
    chunks: chunks.map(({ id, source, ord, text, hash }) => ({ id, source, ord, text, hash })),
    cache: rows.map(({ name, key, data }) => ({
      name,
      key,
      data: Buffer.from(data).toString('base64'),
    })),
  };
}

async function storeContents(config: CohortConfig) {
  const store = await openStore(config);
  try {
    return await contents(store);
  } finally {
    await store.close();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pid the folder's lock names, if it has one. */
function lockPid(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

describe("cohort serve's first start in a child process", () => {
  it('leaves the same store as preparing in the serving process did, and hands the lock over', async () => {
    const { book, config: inChild, ingested, lockHolder, contents } = await preparedCleanStart();
    const root = mkdtempSync(join(tmpdir(), 'cohort-first-start-'));
    const inProcess = configFor(join(root, 'in-process'), book);

    // The lock then named this process, which takes it over when it opens the folder.
    expect(lockHolder).toBe(process.pid);

    // What a first start did in the serving process before: open the assistant, build the index.
    const opened = await openAssistant({ config: inProcess });
    await opened.knowledgeBase.warm?.();
    const expected = opened.ingested;
    await opened.close();

    expect(ingested).toEqual({ files: expected?.files, chunks: expected?.chunks });
    const [child, reference] = [contents, await storeContents(inProcess)];
    expect(child.chunks.length).toBeGreaterThan(0);
    expect(child.cache.map((entry) => entry.name).sort()).toEqual(
      reference.cache.map((entry) => entry.name).sort(),
    );
    expect(child).toEqual(reference);
    expect(existsSync(join(inChild.dataDir, LOCK_FILE_NAME))).toBe(false);

    // A later start loads what the child saved rather than building it again.
    const later = await openAssistant({ config: inChild });
    await later.knowledgeBase.warm?.();
    await later.close();
    expect(await storeContents(inChild)).toEqual(child);
  }, 120_000);

  it('does nothing for a store that exists, for memory:// and for PostgreSQL', async () => {
    const book = smallBook();
    const dir = mkdtempSync(join(tmpdir(), 'cohort-first-start-used-'));
    writeFileSync(join(dir, 'PG_VERSION'), '17\n');
    expect(await prepareNewFolderInChild(configFor(dir, book), io())).toBeUndefined();
    expect(await prepareNewFolderInChild(configFor('memory://', book), io())).toBeUndefined();
    const postgres = loadConfig({
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...extractive },
      cwd: tmpdir(),
    });
    expect(await prepareNewFolderInChild(postgres, io())).toBeUndefined();
  });

  it('prepares a folder a killed first start left half-made in the child again', async () => {
    // What a first start killed while writing the new store leaves (see unfinished-folder.ts):
    // the marker, a dead process's lock and the engine's first file, which PGlite cannot start.
    const book = smallBook();
    const dir = mkdtempSync(join(tmpdir(), 'cohort-first-start-half-made-'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: gone, host: hostname(), startedAt: Date.now(), command: 'serve' }),
    );
    writeFileSync(join(dir, UNFINISHED_FOLDER_FILE), '');
    writeFileSync(join(dir, 'PG_VERSION'), '17\n');
    const config = configFor(dir, book);
    const ingested = await prepareNewFolderInChild(config, io());
    expect(ingested?.files).toBe(2);
    expect(lockPid(dir)).toBe(process.pid);
    expect((await storeContents(config)).chunks.length).toBe(ingested?.chunks);
  }, 120_000);

  it("throws the child's failure as the CohortError the serving process would have thrown", async () => {
    const root = mkdtempSync(join(tmpdir(), 'cohort-first-start-fail-'));
    const missing = join(root, 'no-such-book');
    const inProcess = await openAssistant({ config: configFor(join(root, 'a'), missing) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCohortError(inProcess)).toBe(true);
    const inChild = await prepareNewFolderInChild(configFor(join(root, 'b'), missing), io()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCohortError(inChild)).toBe(true);
    const [a, b] = [inProcess, inChild] as Error[] & { code: string }[];
    expect({ code: b!.code, message: b!.message }).toEqual({
      code: a!.code,
      message: a!.message.replace(join(root, 'a'), join(root, 'b')),
    });
    // The folder is not left locked.
    expect(lockPid(join(root, 'b'))).toBeUndefined();
  }, 60_000);

  it('keeps the folder locked during the first start, and a kill -9 leaves one the next start recovers', async () => {
    const { book, contents: reference } = await preparedCleanStart();
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-first-start-kill-'));
    const dir = join(cwd, 'data');
    const env = { COHORT_DATA_DIR: dir, COHORT_SAMPLE_BOOK: book, ...extractive };
    const serve = spawn(process.execPath, [testCli(), 'serve', '--port', '0'], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...snapshotCacheEnv(), ...env },
      stdio: 'ignore',
    });
    children.push(serve);
    // The child has the folder: its lock names a process other than `cohort serve` itself.
    await until('the child to lock the folder', () => {
      const pid = lockPid(dir);
      return pid !== undefined && pid !== serve.pid;
    });
    const helper = lockPid(dir)!;
    // A second process is refused, told which command holds the folder.
    await expect(openStore({ dataDir: dir })).rejects.toSatisfy(
      (error: unknown) =>
        isCohortError(error, 'conflict') &&
        error.message.includes(`process ${helper}`) &&
        error.message.includes('serve --port 0'),
    );
    serve.kill('SIGKILL');
    // The child stops with its parent.
    await until('the child to exit', () => !alive(helper), 30_000);

    const again = await startServeProcess(env, cwd, 120_000);
    try {
      const reply = await fetch(`${again.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'What does a service answer?' }),
      });
      expect(reply.status).toBe(200);
      const body = (await reply.json()) as { citations: { source: string }[] };
      expect(body.citations.length).toBeGreaterThan(0);
    } finally {
      await again.stop();
    }
    // The whole book is there, as a start that was never interrupted leaves it.
    const recovered = await storeContents(configFor(dir, book));
    expect(recovered.chunks).toEqual(reference.chunks);
  }, 240_000);

  it('reports a killed child as a clear error, and the next start recovers the folder', async () => {
    const book = smallBook();
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-first-start-child-kill-'));
    const dir = join(cwd, 'data');
    const config = configFor(dir, book);
    const preparing = prepareNewFolderInChild(config, io()).then(
      () => undefined,
      (error: unknown) => error,
    );
    await until('the child to lock the folder', () => {
      const pid = lockPid(dir);
      return pid !== undefined && pid !== process.pid;
    });
    process.kill(lockPid(dir)!, 'SIGKILL');
    const error = await preparing;
    expect(isCohortError(error, 'internal')).toBe(true);
    expect((error as Error).message).toContain('was stopped by SIGKILL');
    expect((error as Error).message).toContain('Start again');

    const again = await startServeProcess(
      { COHORT_DATA_DIR: dir, COHORT_SAMPLE_BOOK: book, ...extractive },
      cwd,
      120_000,
    );
    await again.stop();
    expect((await storeContents(config)).chunks.length).toBeGreaterThan(0);
  }, 240_000);
});

describe('relayText', () => {
  it('passes on a character whose bytes arrive in two reads whole', async () => {
    // Found from outside: the child's output was decoded chunk by chunk, so progress text cut
    // inside an "é" showed two U+FFFD.
    const stream = new PassThrough();
    let relayed = '';
    relayText(stream, (text) => (relayed += text));
    const bytes = Buffer.from('Physique é', 'utf8');
    stream.write(bytes.subarray(0, bytes.length - 1));
    stream.end(bytes.subarray(bytes.length - 1));
    await new Promise((resolve) => stream.once('end', resolve));
    expect(relayed).toBe('Physique é');
  });
});
