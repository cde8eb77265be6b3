import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../schema/index.js';
import type { Logger } from '../telemetry/index.js';
import type { Db } from './db.js';
import { openPgliteDb } from './pglite-db.js';
import {
  foldSessionJournal,
  MAX_SESSION_JOURNAL_BYTES,
  openSessionJournal,
  readSessionJournal,
  SESSION_JOURNAL_FILE,
} from './session-journal.js';
import { createStore, openStore } from './store.js';

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-sessions-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second));
const turn = (question: string, second: number): Message[] => [
  { role: 'user', content: question, timestamp: at(second) },
  { role: 'assistant', content: `About ${question}`, agentName: 'glossary', timestamp: at(second) },
];

describe('the session journal', () => {
  it('keeps a session’s turns in order and reads them back as the store would', async () => {
    const dir = newDir();
    const journal = openSessionJournal(dir)!;
    journal.saveTurn('s1', turn('What is VSLAM?', 1));
    journal.saveTurn('s2', turn('What is a topic?', 2));
    // A NUL the database refuses is stored as U+FFFD, by the journal as by the store.
    journal.saveTurn('s1', turn('What does it stand for?\u0000', 3));

    const store = await createStore(await openPgliteDb('memory://'));
    try {
      await store.sessions.saveTurn('s1', turn('What is VSLAM?', 1));
      await store.sessions.saveTurn('s1', turn('What does it stand for?\u0000', 3));
      for (const [limit, maxBytes] of [[10], [3], [10, 20]] as const) {
        expect(journal.history('s1', limit, maxBytes)).toEqual(
          await store.sessions.history('s1', limit, maxBytes),
        );
      }
    } finally {
      await store.close();
    }
    // What a later start reads from the file is what this one wrote.
    expect(openSessionJournal(dir)!.history('s1', 10)).toEqual(journal.history('s1', 10));
    expect(
      openSessionJournal(dir)!
        .history('s2', 10)
        .map((m) => m.content),
    ).toEqual(['What is a topic?', 'About What is a topic?']);
  });

  it('skips a line cut off by a crash, and cuts it off before the next append', () => {
    const dir = newDir();
    openSessionJournal(dir)!.saveTurn('s1', turn('first', 1));
    appendFileSync(join(dir, SESSION_JOURNAL_FILE), '{"turn":"torn","sessionId":"s1","mess');
    const journal = openSessionJournal(dir)!;
    expect(journal.history('s1', 10)).toHaveLength(2);
    journal.saveTurn('s1', turn('second', 2));
    expect(readSessionJournal(dir).map((entry) => entry.messages[0]?.content)).toEqual([
      'first',
      'second',
    ]);
  });

  it('is not read past its size limit: the engine folds it instead', () => {
    const dir = newDir();
    writeFileSync(join(dir, SESSION_JOURNAL_FILE), 'x'.repeat(MAX_SESSION_JOURNAL_BYTES + 1));
    expect(openSessionJournal(dir)).toBeUndefined();
  });

  it('is folded into the store in order by the next open, once, even after a crash mid-fold', async () => {
    const dir = newDir();
    const folder = join(dir, 'store');
    await (await openStore({ dataDir: folder })).close();
    const journal = openSessionJournal(folder)!;
    journal.saveTurn('s1', turn('What is VSLAM?', 1));
    journal.saveTurn('s1', turn('What does it stand for?', 2));
    const expected = journal.history('s1', 10);
    // A copy as it was before the fold: what a process killed after the fold's commit, before
    // the file's deletion, leaves behind.
    copyFileSync(join(folder, SESSION_JOURNAL_FILE), join(dir, 'journal-copy'));

    let store = await openStore({ dataDir: folder });
    try {
      expect(existsSync(join(folder, SESSION_JOURNAL_FILE))).toBe(false);
      expect(await store.sessions.history('s1', 10)).toEqual(expected);
      // A turn saved after the fold follows the folded ones.
      await store.sessions.saveTurn('s1', turn('And Nav2?', 3));
    } finally {
      await store.close();
    }

    copyFileSync(join(dir, 'journal-copy'), join(folder, SESSION_JOURNAL_FILE));
    store = await openStore({ dataDir: folder });
    try {
      const history = await store.sessions.history('s1', 10);
      expect(history.map((message) => message.content)).toEqual([
        ...expected.map((message) => message.content),
        'And Nav2?',
        'About And Nav2?',
      ]);
      expect(existsSync(join(folder, SESSION_JOURNAL_FILE))).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('is kept for the next open when the engine refuses the fold, and the store still opens', async () => {
    const dir = newDir();
    openSessionJournal(dir)!.saveTurn('s1', turn('What is VSLAM?', 1));
    const warnings: string[] = [];
    const refusing = {
      engine: 'pglite',
      transaction: () =>
        Promise.reject(new Error('could not extend file: No space left on device')),
    } as unknown as Db;
    const logger = { warn: (event: string) => void warnings.push(event) } as unknown as Logger;
    expect(await foldSessionJournal(dir, refusing, logger)).toBe(0);
    expect(warnings).toEqual(['session_journal_not_folded']);
    expect(readSessionJournal(dir)).toHaveLength(1);
  });
});
