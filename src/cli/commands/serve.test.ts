import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { LEXICAL_INDEX_CACHE } from '../../retrieval/retrievers/create-retriever.js';
import { openStore } from '../../store/index.js';
import type { CliIo } from '../command.js';
import { serveCommand } from './serve.js';

function captureIo(
  env: Record<string, string> = { COHORT_DATA_DIR: 'memory://' },
): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env,
    cwd: process.cwd(),
    isTTY: false,
  };
}

describe('cohort serve', () => {
  it('serves the book over HTTP and stops on SIGTERM', async () => {
    const io = captureIo();
    const exit = serveCommand.run(['--port', '0', '--host', '127.0.0.1'], io);
    let url: string | undefined;
    while (!url) {
      url = /serving the book assistant on (\S+)/.exec(io.out.join(''))?.[1];
      if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      status: string;
      mode: string;
    };
    expect(health).toMatchObject({ status: 'ok', mode: 'extractive' });
    const reply = await fetch(`${url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'What is a ROS 2 topic?' }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { agent_used: string; citations: unknown[] };
    expect(body.citations.length).toBeGreaterThan(0);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
    expect(io.out.join('')).toContain('Stopped.');
  }, 120_000);

  it("says once at start which of its folder's .claude settings /code leaves out, as cohort code does", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cohort-serve-claude-'));
    mkdirSync(join(cwd, '.claude'));
    writeFileSync(
      join(cwd, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }),
    );
    const book = mkdtempSync(join(tmpdir(), 'cohort-serve-book-'));
    writeFileSync(join(book, 'topics.md'), '# Topics\n\nA topic is a named bus for messages.\n');
    const env = {
      COHORT_DATA_DIR: 'memory://',
      COHORT_SAMPLE_BOOK: book,
      HOME: mkdtempSync(join(tmpdir(), 'cohort-serve-home-')),
      // A model makes /code usable; it is not called at start.
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    };
    const io = { ...captureIo(env), cwd };
    const exit = serveCommand.run(['--port', '0', '--host', '127.0.0.1'], io);
    while (!io.out.join('').includes('serving the book assistant'))
      await new Promise((resolve) => setTimeout(resolve, 50));
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
    const told = io.err.join('');
    expect(told).toContain(
      `cohort ignored these settings of ${join(cwd, '.claude', 'settings.json')}: they are not approved for this folder`,
    );
    expect(told).toContain('permissions.allow = ["Bash(ls:*)"]');
    expect(told.split('cohort ignored these settings').length).toBe(2);
  }, 120_000);

  it('has the lexical index ready before it says it is serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-serve-'));
    // A one-page book: first-use ingestion stays quick.
    const book = mkdtempSync(join(tmpdir(), 'cohort-serve-book-'));
    writeFileSync(join(book, 'topics.md'), '# Topics\n\nA topic is a named bus for messages.\n');
    const io = captureIo({ COHORT_DATA_DIR: dir, COHORT_SAMPLE_BOOK: book });
    const exit = serveCommand.run(['--port', '0', '--host', '127.0.0.1'], io);
    while (!io.out.join('').includes('serving the book assistant'))
      await new Promise((resolve) => setTimeout(resolve, 50));
    // No question was asked: the index was built (and saved) at start-up, not by a first query.
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exit).toBe(0);
    const store = await openStore({ dataDir: dir });
    try {
      const { rows } = await store.db.query('SELECT name FROM build_cache WHERE name = $1', [
        LEXICAL_INDEX_CACHE,
      ]);
      expect(rows).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('rejects an empty, blank or non-decimal port instead of reading it as port 0', async () => {
    for (const port of ['', ' ', '1e3', '0x10', '8787.0']) {
      await expect(serveCommand.run(['--port', port], captureIo()), port).rejects.toSatisfy(
        (error: unknown) =>
          isCohortError(error, 'invalid_input') && error.message.includes('--port'),
      );
    }
  });

  it('names a host that is not an address of this machine instead of an unexpected error', async () => {
    await expect(
      serveCommand.run(['--port', '0', '--host', 'no-such-host.invalid'], captureIo()),
    ).rejects.toSatisfy(
      (error: unknown) =>
        isCohortError(error, 'invalid_input') && error.message.includes('"no-such-host.invalid"'),
    );
  });

  it('rejects a bad port before opening anything', async () => {
    await expect(serveCommand.run(['--port', 'http'], captureIo())).rejects.toSatisfy(
      (error: unknown) => isCohortError(error, 'invalid_input') && error.message.includes('--port'),
    );
  });

  it('refuses a port in use before opening the store or ingesting anything', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dir = join(mkdtempSync(join(tmpdir(), 'cohort-serve-busy-')), 'data');
    const book = mkdtempSync(join(tmpdir(), 'cohort-serve-book-'));
    writeFileSync(join(book, 'topics.md'), '# Topics\n\nA topic is a named bus for messages.\n');
    const io = captureIo({ COHORT_DATA_DIR: dir, COHORT_SAMPLE_BOOK: book });
    try {
      await expect(
        serveCommand.run(['--port', String(port), '--host', '127.0.0.1'], io),
      ).rejects.toSatisfy(
        (error: unknown) =>
          isCohortError(error, 'conflict') &&
          error.message.includes(`127.0.0.1:${port}`) &&
          error.message.includes('already in use'),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    // Nothing was opened: no data folder, no ingestion line.
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    expect(io.err.join('')).not.toContain('Ingested');
  });

  it('refuses a host it cannot listen on before ingesting anything, with --port 0 too', async () => {
    // Found by an outside tester: `--port 0 --host 10.99.99.99` made and ingested a new data
    // folder, then said the address is not this machine's.
    for (const port of ['0', '18799']) {
      const dir = join(mkdtempSync(join(tmpdir(), 'cohort-serve-host-')), 'data');
      const book = mkdtempSync(join(tmpdir(), 'cohort-serve-book-'));
      writeFileSync(join(book, 'topics.md'), '# Topics\n\nA topic is a named bus for messages.\n');
      const io = captureIo({ COHORT_DATA_DIR: dir, COHORT_SAMPLE_BOOK: book });
      await expect(
        serveCommand.run(['--port', port, '--host', 'no such host'], io),
      ).rejects.toSatisfy(
        (error: unknown) =>
          isCohortError(error) && error.message.includes('Cannot listen on host "no such host"'),
      );
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      expect(io.err.join('')).not.toContain('Ingested');
    }
  });
});
