import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_MESSAGES } from '../schema/index.js';
import { testEngines } from '../test/test-engines.js';
import { KEPT_SESSION_MESSAGES, PRUNE_SESSIONS_EVERY } from './session-retention.js';
import { createStore, openStore, type Store } from './store.js';

// A store that bounds its sessions (keepSessions; memory:// by default) keeps the most recently
// active ones, each with its last KEPT_SESSION_MESSAGES messages, so a long-lived server stops
// growing with its chats.

const turn = (store: Store, sessionId: string, n: number) =>
  store.sessions.saveTurn(sessionId, [
    { role: 'user', content: `q${n}` },
    { role: 'assistant', content: `a${n}`, agentName: 'book' },
  ]);
const contents = async (store: Store, sessionId: string) =>
  (await store.sessions.history(sessionId, 1000)).map((message) => message.content);
const messageCount = async (store: Store) =>
  Number((await store.db.query<{ n: string }>('SELECT count(*) AS n FROM messages')).rows[0]?.n);

it('never trims into the history the model reads (or the session cache holds)', () => {
  expect(KEPT_SESSION_MESSAGES).toBeGreaterThanOrEqual(MAX_HISTORY_MESSAGES);
});

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `sessions kept on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      it('keeps the keepSessions most recently active sessions, and forgets the others whole', async () => {
        const opened = await engine.open();
        const store = await createStore(opened.db, { keepSessions: 3 });
        const [s1, s2, s3, s4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        try {
          for (const [i, id] of [s1, s2, s3, s1].entries()) {
            await turn(store, id as string, i);
            await store.sessions.settled();
          }
          // Read once, so that the session cache knows s2 before it is deleted.
          expect(await store.sessions.history(s2 as string, 10)).toHaveLength(2);
          await turn(store, s4 as string, 4);
          await store.sessions.settled();
          expect(await store.sessions.history(s2 as string, 10)).toEqual([]);
          expect(await contents(store, s2 as string)).toEqual([]);
          expect(await contents(store, s1 as string)).toEqual(['q0', 'a0', 'q3', 'a3']);
          expect(await contents(store, s3 as string)).toEqual(['q2', 'a2']);
          expect(await contents(store, s4 as string)).toEqual(['q4', 'a4']);
        } finally {
          await store.sessions.delete(s1 as string);
          await store.sessions.delete(s3 as string);
          await store.sessions.delete(s4 as string);
          await opened.close();
        }
      });

      it('forgets who owned a session it forgets (the owners table stays bounded too)', async () => {
        // Found by review: pruned sessions' owner rows stayed, one per session ever served.
        const opened = await engine.open();
        const store = await createStore(opened.db, { keepSessions: 2 });
        const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        const owned = async () =>
          (
            await store.db.query<{ id: string }>(
              "SELECT id FROM owners WHERE kind = 'session' AND id = ANY($1::text[])",
              [ids],
            )
          ).rows.map((row) => row.id);
        try {
          for (const [i, id] of ids.entries()) {
            expect(await store.sessions.claim(id, `key-${i}`)).toBe(`key-${i}`);
            await turn(store, id, i);
            await store.sessions.settled();
          }
          expect((await owned()).sort()).toEqual(ids.slice(2).sort());
          expect(await store.sessions.ownerOf(ids[3] as string)).toBe('key-3');
        } finally {
          for (const id of ids) await store.sessions.delete(id);
          await opened.close();
        }
      });
    },
  );
}

describe('sessions kept by a memory:// store', () => {
  it('keeps each session to its last KEPT_SESSION_MESSAGES messages with no setting', async () => {
    const store = await openStore({ dataDir: 'memory://' });
    try {
      const id = randomUUID();
      // Old messages are deleted once every PRUNE_SESSIONS_EVERY turns, after the turn, off its path.
      for (let i = 0; i < PRUNE_SESSIONS_EVERY; i++) await turn(store, id, i);
      await store.sessions.settled();
      const kept = await contents(store, id);
      expect(kept).toHaveLength(KEPT_SESSION_MESSAGES);
      expect(kept.at(0)).toBe(`q${PRUNE_SESSIONS_EVERY - KEPT_SESSION_MESSAGES / 2}`);
      expect(kept.at(-1)).toBe(`a${PRUNE_SESSIONS_EVERY - 1}`);
      expect(await store.sessions.history(id, 10)).toHaveLength(10);
      expect(await messageCount(store)).toBe(KEPT_SESSION_MESSAGES);
    } finally {
      await store.close();
    }
  });
});
