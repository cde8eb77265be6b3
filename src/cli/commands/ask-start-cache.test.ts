import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { START_CACHE_FILE } from '../../store/index.js';
import { runCli } from '../../test/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-ask-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataDir = join(root, 'store');
const cacheFile = join(dataDir, START_CACHE_FILE);
const env = { COHORT_DATA_DIR: dataDir, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/** `cohort ask --json` on the folder: the reply without what differs per run. */
async function ask(question: string) {
  const { code, stdout, stderr } = await runCli(['ask', question, '--json'], env);
  expect(code, stderr).toBe(0);
  const {
    session_id: _s,
    query_id: _q,
    latency_ms: _l,
    ...reply
  } = JSON.parse(stdout) as Record<string, unknown>;
  return reply;
}

describe('cohort ask with the data folder’s start cache', () => {
  it('answers as without it, and never from a cache older than the store', async () => {
    const question = 'What is a ROS 2 topic?';
    const first = await ask(question); // ingests the sample book; the start cache is written on close
    expect(existsSync(cacheFile)).toBe(true);
    expect(await ask(question)).toEqual(first); // from the start cache
    const stale = readFileSync(cacheFile);

    // An ingestion deletes the cache before it writes.
    const docs = join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'quadrupeds.md'),
      '# Quadruped gaits\n\nA trotting quadruped moves its diagonal leg pairs together, which keeps it balanced at walking speed.\n',
    );
    const ingested = await runCli(['ingest', docs], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(existsSync(cacheFile)).toBe(false);
    const about = 'How does a trotting quadruped move its legs?';
    const fresh = await ask(about);
    expect(String(fresh.answer)).toContain('diagonal leg pairs');
    expect(existsSync(cacheFile)).toBe(true);

    // A cache left behind by a program that did not delete it (as an older cohort would) does
    // not match the store: the answer comes from the store, as it would without any cache.
    writeFileSync(cacheFile, stale);
    expect(await ask(about)).toEqual(fresh);
    expect(readFileSync(cacheFile).equals(stale)).toBe(false);
  }, 120_000);
});
