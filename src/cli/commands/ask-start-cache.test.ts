import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createStore,
  folderFingerprint,
  isStartCacheSealed,
  openPgliteDb,
  openStore,
  readSessionJournal,
  readTraceJournal,
  SESSION_JOURNAL_FILE,
  START_CACHE_FILE,
  START_CACHE_SEAL_FILE,
  TRACE_JOURNAL_FILE,
} from '../../store/index.js';
import { runCli } from '../../test/run-cli.js';
import { testCli } from '../../test/test-cli.js';

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

    // An ingestion deletes the cache before it writes, and writes (and seals) the new one, with
    // the router and the index it built, when it closes: the first ask after it starts from it.
    const docs = join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'quadrupeds.md'),
      '# Quadruped gaits\n\nA trotting quadruped moves its diagonal leg pairs together, which keeps it balanced at walking speed.\n',
    );
    const ingested = await runCli(['ingest', docs], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(existsSync(cacheFile)).toBe(true);
    expect(readFileSync(cacheFile).equals(stale)).toBe(false);
    expect(isStartCacheSealed(dataDir)).toBe(true);
    const written = readFileSync(cacheFile);
    const about = 'How does a trotting quadruped move its legs?';
    const fresh = await ask(about);
    expect(String(fresh.answer)).toContain('diagonal leg pairs');
    // Nothing was missing from it: the ask built nothing and wrote no new cache.
    expect(readFileSync(cacheFile).equals(written)).toBe(true);

    // A cache left behind by a program that did not delete it (as an older cohort would) does
    // not match the store: the answer comes from the store, as it would without any cache.
    writeFileSync(cacheFile, stale);
    expect(await ask(about)).toEqual(fresh);
    expect(readFileSync(cacheFile).equals(stale)).toBe(false);
  }, 120_000);
});

describe('cohort ingest into a new data folder', () => {
  it('leaves the router and the index the first ask loads: that ask builds nothing', async () => {
    // Built from the chunks while the engine wrote them, and saved under the keys an ask computes.
    const folder = join(root, 'ingested');
    const folderEnv = { ...env, COHORT_DATA_DIR: folder };
    const docs = join(root, 'gaits');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'quadrupeds.md'),
      '# Quadruped gaits\n\nA trotting quadruped moves its diagonal leg pairs together, which keeps it balanced at walking speed.\n',
    );
    writeFileSync(
      join(docs, 'bipeds.md'),
      '# Biped gaits\n\nA walking biped keeps one foot on the ground, shifting its weight over it.\n',
    );
    const ingested = await runCli(['ingest', docs], folderEnv);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(ingested.stderr).toBe('');
    const store = await openStore({ dataDir: folder });
    try {
      const { rows } = await store.db.query<{ name: string }>(
        'SELECT name FROM build_cache ORDER BY name',
      );
      expect(rows.map((row) => row.name)).toEqual(['lexical-index', 'trained-router']);
    } finally {
      await store.close();
    }
    // Opening the engine above confirmed the start cache: it is the one the ingestion wrote.
    const cacheOf = join(folder, START_CACHE_FILE);
    const written = readFileSync(cacheOf);
    const { code, stdout, stderr } = await runCli(
      ['ask', 'How does a trotting quadruped move its legs?', '--json'],
      folderEnv,
    );
    expect(code, stderr).toBe(0);
    expect(String((JSON.parse(stdout) as { answer: unknown }).answer)).toContain(
      'diagonal leg pairs',
    );
    // Nothing was missing from the start cache: the ask built nothing and wrote no new one.
    expect(readFileSync(cacheOf).equals(written)).toBe(true);
  }, 120_000);
});

describe('cohort ingest of a folder where nothing changed', () => {
  it('says so, and neither builds, loads nor rewrites anything: the start cache stands', async () => {
    const folder = join(root, 'unchanged');
    const folderEnv = { ...env, COHORT_DATA_DIR: folder };
    const docs = join(root, 'unchanged-docs');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'wheels.md'),
      '# Wheeled robots\n\nA differential drive steers by turning its two wheels at different speeds.\n',
    );
    expect((await runCli(['ingest', docs], folderEnv)).code).toBe(0);
    const cacheOf = join(folder, START_CACHE_FILE);
    const before = statSync(cacheOf, { bigint: true });
    const sealed = isStartCacheSealed(folder);
    for (const _ of [1, 2]) {
      const again = await runCli(['ingest', docs], folderEnv);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^Nothing changed in 1 file · \d+ ms$/m);
      const after = statSync(cacheOf, { bigint: true });
      expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
      expect([sealed, isStartCacheSealed(folder)]).toEqual([true, true]);
    }
    // --rehash reads the file, and finds it unchanged all the same.
    const rehashed = await runCli(['ingest', docs, '--rehash'], folderEnv);
    expect(rehashed.stdout).toMatch(/^Nothing changed in 1 file/m);
    // A changed file is ingested, and the router, the index and the start cache follow it.
    writeFileSync(
      join(docs, 'wheels.md'),
      '# Wheeled robots\n\nA skid-steer robot turns by skidding.\n',
    );
    const changed = await runCli(['ingest', docs], folderEnv);
    expect(changed.stdout).toMatch(/^1 file: 0 added, 1 replaced, 0 unchanged/m);
    expect(statSync(cacheOf, { bigint: true }).mtimeNs).not.toBe(before.mtimeNs);
    const { stdout } = await runCli(
      ['ask', 'How does a skid-steer robot turn?', '--json'],
      folderEnv,
    );
    expect(String((JSON.parse(stdout) as { answer: unknown }).answer)).toContain('skidding');
  }, 120_000);
});

describe('cohort ask without a session, from a sealed start cache', () => {
  const folder = join(root, 'sealed');
  const sealedEnv = { ...env, COHORT_DATA_DIR: folder };
  const question = 'What is a ROS 2 topic?';
  const askHere = (...extra: string[]) => askThere(question, ...extra);
  const askThere = async (asked: string, ...extra: string[]) => {
    const { code, stdout, stderr } = await runCli(['ask', asked, '--json', ...extra], sealedEnv);
    expect(code, stderr).toBe(0);
    return JSON.parse(stdout) as {
      answer: string;
      query_id: string;
      metadata: { follow_up?: { resolved_query: string } };
    };
  };
  const answerRuns = async () => {
    const store = await openStore({ dataDir: folder });
    try {
      const { rows } = await store.db.query<{ id: string }>(
        "SELECT id FROM runs WHERE kind = 'answer' ORDER BY id",
      );
      return rows.map((row) => row.id);
    } finally {
      await store.close();
    }
  };

  it('answers without opening the engine; the trace reaches the store through the journal', async () => {
    const first = await askHere(); // ingests the sample book; writes and seals the start cache
    expect(existsSync(join(folder, START_CACHE_SEAL_FILE))).toBe(true);
    const engineFiles = folderFingerprint(folder);

    const second = await askHere();
    expect(second.answer).toBe(first.answer);
    // Not one of PGlite's files was opened for writing: the engine never started.
    expect(folderFingerprint(folder)).toBe(engineFiles);
    expect(readTraceJournal(folder).map((trace) => trace.run.id)).toEqual([second.query_id]);

    // The next process that opens the engine writes the journal in before it reads anything.
    expect(await answerRuns()).toEqual([first.query_id, second.query_id].sort());
    expect(existsSync(join(folder, TRACE_JOURNAL_FILE))).toBe(false);

    // That open changed the engine's files, so the seal no longer holds: this start confirms the
    // cache against the engine (its trace goes straight in), and seals it again on close.
    const third = await askHere();
    expect(existsSync(join(folder, TRACE_JOURNAL_FILE))).toBe(false);
    expect(isStartCacheSealed(folder)).toBe(true);
    expect(await answerRuns()).toContain(third.query_id);
  }, 120_000);

  it('never answers from a cache the store changed under, even by a program that keeps no cache', async () => {
    const before = await askHere();
    expect(isStartCacheSealed(folder)).toBe(true);
    // A program that opens the folder without cohort's hooks (as an older cohort would) and
    // removes the document the answer quoted: it neither deletes the cache nor its seal.
    const source = (
      JSON.parse((await runCli(['ask', question, '--json'], sealedEnv)).stdout) as {
        citations: { source: string }[];
      }
    ).citations[0]?.source;
    expect(source).toBeTruthy();
    const raw = await createStore(await openPgliteDb(folder));
    expect(await raw.chunks.removeDocument(String(source))).toBe(true);
    await raw.close();

    const after = await askHere();
    expect(after.answer).not.toBe(before.answer);
    expect(JSON.stringify(after)).not.toContain(String(source));
  }, 120_000);

  it('in a session the engine holds none of, journals the turn without opening the engine', async () => {
    const session = '6f1c1e9e-5b9a-4b0e-9a53-2f8d1c3b7a10';
    await askHere(); // seals
    const engineFiles = folderFingerprint(folder);
    const first = await askHere('--session', session);
    const followUp = await askThere('What does it stand for?', '--session', session);
    // Not one of PGlite's files was opened for writing; the follow-up read the first turn from
    // the session journal, as it would have from the engine.
    expect(folderFingerprint(folder)).toBe(engineFiles);
    expect(readSessionJournal(folder).map((turn) => turn.sessionId)).toEqual([session, session]);
    expect(followUp.metadata.follow_up?.resolved_query).toMatch(/ROS 2 topic/);

    // The next process that opens the engine writes the turns in, in order, and the journal goes.
    let store = await openStore({ dataDir: folder });
    try {
      expect((await store.sessions.history(session, 10)).map((m) => m.content)).toEqual([
        question,
        first.answer,
        'What does it stand for?',
        followUp.answer,
      ]);
    } finally {
      await store.close();
    }
    expect(existsSync(join(folder, SESSION_JOURNAL_FILE))).toBe(false);

    // Now the engine holds the session: a turn in it opens the engine and is saved there, and
    // the seal written on close lists the session, so the next turn in it opens the engine too.
    await askHere('--session', session);
    expect(isStartCacheSealed(folder)).toBe(true);
    const sealedFiles = folderFingerprint(folder);
    await askHere('--session', session);
    expect(folderFingerprint(folder)).not.toBe(sealedFiles);
    expect(existsSync(join(folder, SESSION_JOURNAL_FILE))).toBe(false);
    store = await openStore({ dataDir: folder });
    try {
      expect(await store.sessions.history(session, 10)).toHaveLength(8);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('cohort ask from several processes on one data folder', () => {
  const folder = join(root, 'shared');
  /**
   * `cohort ask` in a process of its own (the run's bundle of the sources, see test-cli.ts);
   * `killAfterMs`: SIGKILL then, or as soon as the answer is on stdout (`'answered'`).
   */
  const askProcess = (...argv: string[]) => askKilled(undefined, ...argv);
  const askKilled = (killAfterMs: number | 'answered' | undefined, ...argv: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [testCli(), 'ask', ...argv, '--json'],
        { env: { ...process.env, ...env, COHORT_DATA_DIR: folder }, timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
      if (typeof killAfterMs === 'number') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      let shown = '';
      if (killAfterMs === 'answered')
        child.stdout?.on('data', (data: Buffer) => {
          shown += data.toString();
          if (shown.trimEnd().endsWith('}')) child.kill('SIGKILL');
        });
    });

  it('loses no answered question’s trace: each process answers, or is refused and saves nothing', async () => {
    const first = await askProcess('What is a ROS 2 topic?'); // ingests, writes the cache
    expect(first.code, first.stderr).toBe(0);
    const second = await askProcess('What is a ROS 2 topic?'); // confirms and seals it
    expect(second.code, second.stderr).toBe(0);
    expect(isStartCacheSealed(folder)).toBe(true);

    // Detached starts (journal) and one with a session (engine) at the same time.
    const results = await Promise.all([
      askProcess('What is a ROS 2 node?'),
      askProcess('What is a ROS 2 service?'),
      askProcess('What is a ROS 2 topic?', '--session', '0b6f6a4e-3f43-4d6e-9d5e-0f3c2a1b9c8d'),
      askProcess('What hardware runs ROS 2?'),
    ]);
    const answered: string[] = [first, second, ...results]
      .filter((result) => result.code === 0)
      .map((result) => (JSON.parse(result.stdout) as { query_id: string }).query_id);
    for (const result of results) {
      // Refused while another process holds the folder: exit 1 with a message naming it.
      if (result.code !== 0) expect(result.stderr).toMatch(/is in use by process/);
    }
    expect(answered.length).toBeGreaterThan(2);

    const store = await openStore({ dataDir: folder });
    try {
      const { rows } = await store.db.query<{ id: string }>(
        "SELECT id FROM runs WHERE kind = 'answer'",
      );
      const stored = new Set(rows.map((row) => row.id));
      for (const id of answered) expect(stored.has(id), id).toBe(true);
      expect(stored.size).toBe(answered.length);
    } finally {
      await store.close();
    }
  }, 300_000);

  it('leaves a consistent store when a process is killed with SIGKILL at any point of an answer', async () => {
    // From module loading to the journal write and the lock's release, at several moments.
    for (const killAfterMs of [500, 1500, 2500]) {
      const killed = await askKilled(killAfterMs, 'What is a ROS 2 node?');
      const next = await askProcess('What is a ROS 2 topic?');
      expect(next.code, `after a kill at ${killAfterMs} ms: ${next.stderr}`).toBe(0);
      const answered = [killed, next]
        .filter((result) => result.code === 0)
        .map((result) => (JSON.parse(result.stdout) as { query_id: string }).query_id);
      const store = await openStore({ dataDir: folder });
      try {
        const { rows } = await store.db.query<{ id: string }>('SELECT id FROM runs');
        const stored = new Set(rows.map((row) => row.id));
        for (const id of answered) expect(stored.has(id), id).toBe(true);
        expect(await store.chunks.count()).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    }
  }, 300_000);

  it('keeps a session turn once its answer is shown, though the process is killed right then', async () => {
    const session = '3c2a1b9c-8d0b-4f6a-9e43-6d4e0f3c2a1b';
    const contents = async () => {
      const store = await openStore({ dataDir: folder });
      try {
        return (await store.sessions.history(session, 10)).map((message) => message.content);
      } finally {
        await store.close();
      }
    };
    const answerOf = (result: { stdout: string }) =>
      (JSON.parse(result.stdout) as { answer: string }).answer;
    const sealing = await askProcess('What is a ROS 2 topic?');
    expect(sealing.code, sealing.stderr).toBe(0);
    expect(isStartCacheSealed(folder)).toBe(true);

    // Sealed, and the engine holds none of the session: the turn is in the session journal.
    const journaled = await askKilled('answered', 'What is VSLAM?', '--session', session);
    expect(await contents()).toEqual(['What is VSLAM?', answerOf(journaled)]);
    // That open folded the journal in (and broke the seal): this turn is the engine's.
    const committed = await askKilled('answered', 'What does it stand for?', '--session', session);
    expect(await contents()).toEqual([
      'What is VSLAM?',
      answerOf(journaled),
      'What does it stand for?',
      answerOf(committed),
    ]);
  }, 300_000);
});
