import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRepo, type Store } from './index.js';
import { testEngines } from '../test/test-engines.js';

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(
    `store on ${engine.name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    () => {
      let store: Store;
      beforeAll(async () => {
        store = await engine.open();
      });
      afterAll(() => store.close());

      const doc = { source: 'a.md', title: 'A', hash: 'h1', domain: 'general' };
      const chunk = (id: string, text: string) => ({
        id,
        source: 'a.md',
        ord: 0,
        title: 'A',
        headingPath: ['A', 'Intro'],
        domain: 'general',
        text,
        hash: id,
        metadata: { kind: 'section' },
      });

      it('adds, skips unchanged and replaces changed documents', async () => {
        expect(await store.chunks.upsertDocument(doc, [chunk('c1', 'one')])).toBe('added');
        expect(await store.chunks.upsertDocument(doc, [chunk('c1', 'one')])).toBe('unchanged');
        expect(await store.chunks.count()).toBe(1);
        expect(
          await store.chunks.upsertDocument({ ...doc, hash: 'h2' }, [
            chunk('c2', 'two'),
            { ...chunk('c3', 'three'), ord: 1 },
          ]),
        ).toBe('replaced');
        const all = await store.chunks.all();
        expect(all.map((c) => c.text)).toEqual(['two', 'three']);
        expect(all[0]?.headingPath).toEqual(['A', 'Intro']);
        expect(all[0]?.metadata).toEqual({ kind: 'section' });
      });

      it('rolls back a failed upsert', async () => {
        const before = await store.chunks.count();
        await expect(
          store.chunks.upsertDocument({ ...doc, hash: 'h3' }, [
            chunk('d1', 'x'),
            chunk('d1', 'dup id'),
          ]),
        ).rejects.toThrow();
        expect(await store.chunks.count()).toBe(before);
        expect((await store.chunks.documentHashes()).get('a.md')).toBe('h2');
      });

      it('keeps the last N messages of a session in order', async () => {
        for (let i = 0; i < 12; i++) {
          await store.sessions.save('s1', {
            role: i % 2 ? 'assistant' : 'user',
            content: `m${i}`,
            agentName: i % 2 ? 'glossary' : undefined,
          });
        }
        const history = await store.sessions.history('s1', 10);
        expect(history.map((m) => m.content)).toEqual([
          'm2',
          'm3',
          'm4',
          'm5',
          'm6',
          'm7',
          'm8',
          'm9',
          'm10',
          'm11',
        ]);
        expect(history[1]?.agentName).toBe('glossary');
        expect(await store.sessions.delete('s1')).toBe(12);
        expect(await store.sessions.history('s1', 10)).toEqual([]);
      });

      it('reads at most a budget of bytes of history, newest first, from the cache and the engine alike', async () => {
        const id = randomUUID();
        for (let i = 0; i < 6; i++) {
          await store.sessions.save(id, { role: 'user', content: `${i}`.repeat(100) });
        }
        const direct = new SessionRepo(store.db);
        for (const repo of [store.sessions, direct]) {
          // Newer messages under 250 bytes: the newest three (the third passes the budget).
          const read = await repo.history(id, 10, 250);
          expect(read.map((m) => m.content[0])).toEqual(['3', '4', '5']);
          expect((await repo.history(id, 10, 1)).map((m) => m.content[0])).toEqual(['5']);
          expect(await repo.history(id, 2, 10_000)).toHaveLength(2);
          expect(await repo.history(id, 10)).toHaveLength(6);
        }
        await store.sessions.delete(id);
      });

      it('keeps each turn whole and adjacent when turns of one session commit at once', async () => {
        const id = randomUUID();
        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.sessions.saveTurn(id, [
              { role: 'user', content: `q${i}` },
              { role: 'assistant', content: `a${i}`, agentName: 'book' },
            ]),
          ),
        );
        const history = await store.sessions.history(id, 100);
        expect(history).toHaveLength(80);
        for (let i = 0; i < history.length; i += 2) {
          expect(history[i]?.role).toBe('user');
          expect(history[i + 1]?.content).toBe(history[i]?.content.replace('q', 'a'));
        }
      });

      it('answers history as the engine has it while turns, reads and deletes interleave', async () => {
        // A repo without the cache reads the engine itself: the truth to compare with.
        const direct = new SessionRepo(store.db);
        const id = randomUUID();
        const turn = (i: number) =>
          store.sessions.saveTurn(id, [
            { role: 'user', content: `q${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) },
            { role: 'assistant', content: `a${i}`, agentName: i % 2 ? 'glossary' : '' },
          ]);
        expect(await store.sessions.history(id, 10)).toEqual([]);
        const reads: Promise<unknown>[] = [];
        for (let i = 0; i < 30; i++) {
          reads.push(turn(i), store.sessions.history(id, 10));
          if (i === 26) reads.push(store.sessions.delete(id));
        }
        await Promise.all(reads);
        for (const limit of [1, 4, 10]) {
          expect(await store.sessions.history(id, limit)).toEqual(await direct.history(id, limit));
        }
        // A message the engine changes (a lone surrogate is stored as U+FFFD) is read as stored.
        await store.sessions.save(id, { role: 'user', content: 'alone \ud800 here' });
        expect(await store.sessions.history(id, 10)).toEqual(await direct.history(id, 10));
        expect(await store.sessions.delete(id)).toBeGreaterThan(0);
        expect(await store.sessions.history(id, 10)).toEqual([]);
      });

      it.runIf(engine.name !== 'postgres')(
        'reads a session of the embedded store from the engine once, then from memory',
        async () => {
          const queries: string[] = [];
          const counted = {
            ...store.db,
            query: ((sql: string, params?: unknown[]) => {
              queries.push(sql);
              return store.db.query(sql, params);
            }) as typeof store.db.query,
          };
          const sessions = new SessionRepo(counted, { exclusive: true });
          const id = randomUUID();
          await sessions.history(id, 10);
          await sessions.saveTurn(id, [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: 'a', agentName: 'book' },
          ]);
          const history = await sessions.history(id, 10);
          expect(history.map((m) => m.content)).toEqual(['q', 'a']);
          expect(queries.filter((sql) => sql.includes('FROM messages'))).toHaveLength(1);
          expect(history).toEqual(await new SessionRepo(store.db).history(id, 10));
        },
      );

      it('saves runs and their tasks', async () => {
        await store.runs.create({ id: 'r1', kind: 'research', status: 'running', input: { q: 1 } });
        await store.runs.saveTask({
          runId: 'r1',
          taskId: 't1',
          status: 'done',
          output: { ok: true },
        });
        await store.runs.saveTask({ runId: 'r1', taskId: 't1', status: 'done', output: { ok: 2 } });
        await store.runs.update('r1', { status: 'done', output: { report: 'x' } });
        expect(await store.runs.get('r1')).toMatchObject({
          status: 'done',
          input: { q: 1 },
          output: { report: 'x' },
        });
        expect(await store.runs.tasks('r1')).toEqual([
          { runId: 'r1', taskId: 't1', status: 'done', output: { ok: 2 } },
        ]);
      });
    },
  );
}
