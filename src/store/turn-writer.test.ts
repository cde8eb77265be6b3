import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Statement } from './db.js';
import { openPgliteDb } from './pglite-db.js';
import { createStore, type Store } from './store.js';
import { TurnWriter } from './turn-writer.js';

describe('TurnWriter on the embedded engine', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createStore(await openPgliteDb(mkdtempSync(join(tmpdir(), 'cohort-writer-'))));
  });
  afterAll(() => store.close());

  /** The store's engine, with each batch it is given recorded. */
  const counted = () => {
    const batches: (readonly Statement[])[] = [];
    const db: Db = {
      ...store.db,
      batch: async (statements) => {
        batches.push(statements);
        await store.db.batch?.(statements);
      },
    };
    return { db, batches };
  };
  const turn = (session: string, i: number) => [
    [session, 'user', `q${i}`, null, new Date().toISOString()],
    [session, 'assistant', `a${i}`, 'book', new Date().toISOString()],
  ];
  const stored = async (session: string) =>
    (
      await store.db.query<{ content: string }>(
        'SELECT content FROM messages WHERE session_id = $1 ORDER BY id',
        [session],
      )
    ).rows.map((row) => row.content);

  it('writes the turns given while a write is under way with one statement, in order', async () => {
    const { db, batches } = counted();
    const writer = new TurnWriter(db);
    await Promise.all(Array.from({ length: 30 }, (_, i) => writer.append(turn('together', i))));
    // The first turn is written at once, the 29 that arrive meanwhile in one statement.
    expect(batches.map((batch) => batch.length)).toEqual([1, 1]);
    expect(batches[1]?.[0]?.sql.match(/\(\$/g)).toHaveLength(58);
    expect(await stored('together')).toEqual(
      Array.from({ length: 30 }, (_, i) => [`q${i}`, `a${i}`]).flat(),
    );
  });

  it('fails only the turn the engine refuses; the others of its group commit', async () => {
    const { db } = counted();
    const writer = new TurnWriter(db);
    const results = await Promise.allSettled([
      writer.append(turn('spoilt', 0)),
      writer.append(turn('spoilt', 1)),
      // A NUL byte: PostgreSQL refuses it in text, and the group it came with fails.
      writer.append([['spoilt', 'user', 'bad\u0000', null, new Date().toISOString()]]),
      writer.append(turn('spoilt', 3)),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await stored('spoilt')).toEqual(['q0', 'a0', 'q1', 'a1', 'q3', 'a3']);
  });
});
