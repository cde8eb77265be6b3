import { lstatSync } from 'node:fs';
import { mkdtemp, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { RACY_MARGIN_NS, statKey, wallClockNs } from './file-stat.js';
import { ingest, type IngestOptions } from './ingest.js';

/** A clock `offset` seconds from the wall clock's (files written now are that much older). */
const clock = (offsetSeconds: number) => () =>
  wallClockNs() + BigInt(offsetSeconds) * 1_000_000_000n;

/** A minute ahead: files written by the test are long settled, not racy. */
const LATER = clock(60);

describe('ingest: a file whose stats are unchanged is not read again', () => {
  let book: string;
  let store: Store;
  let chunkWrites: number;
  beforeEach(async () => {
    book = await mkdtemp(join(tmpdir(), 'cohort-stats-'));
    chunkWrites = 0;
    store = await createStore(await openPgliteDb('memory://'), {
      beforeChunkWrite: () => (chunkWrites += 1),
    });
    await writeFile(join(book, 'a.md'), '# Alpha\n\nA section about alpha with enough words.\n');
    await writeFile(join(book, 'b.md'), '# Beta\n\nA section about beta with enough words.\n');
  });
  afterEach(async () => {
    await store.close();
    await rm(book, { recursive: true, force: true });
  });

  const run = (options: Partial<IngestOptions> = {}) =>
    ingest(book, { store, now: LATER, ...options });

  /**
   * Changes `a.md` and makes the store's record of it match its new stats, as a change the file
   * system's times could not show would (one within a tick of its clock): only a read tells.
   */
  const changeUnseen = async (seenNs: bigint) => {
    await writeFile(join(book, 'a.md'), '# Alpha v2\n\nRewritten, same stats on record.\n');
    const stat = statKey(lstatSync(join(book, 'a.md'), { bigint: true }), 'parser 2');
    await store.db.query(`UPDATE file_stats SET stat = $1, seen_ns = $2 WHERE source = 'a.md'`, [
      stat,
      seenNs.toString(),
    ]);
  };
  const titles = async () => (await store.chunks.documents()).map((d) => d.title);

  it('records each file read, and trusts the record: a change it cannot see is not read', async () => {
    await run();
    expect([...(await store.chunks.fileStats()).keys()].sort()).toEqual(['a.md', 'b.md']);
    await changeUnseen(LATER() - 1_000_000_000n);
    expect(await run()).toMatchObject({ unchanged: 2, replaced: 0 });
    expect(await titles()).toEqual(['Alpha', 'Beta']);
    // --rehash reads every file whatever its record says.
    expect(await run({ rehash: true })).toMatchObject({ unchanged: 1, replaced: 1 });
    expect(await titles()).toEqual(['Alpha v2', 'Beta']);
  });

  it('writes nothing when nothing changed: no transaction, the start cache kept', async () => {
    await run();
    expect(chunkWrites).toBe(1);
    expect(await run()).toMatchObject({ unchanged: 2, added: 0, replaced: 0 });
    expect(chunkWrites).toBe(1);
  });

  it('reads a file changed too close to the recording ingestion’s start (racy), as git does', async () => {
    // Written just now and ingested at once: no record, as it may change again in the same tick.
    await run({ now: clock(0) });
    expect((await store.chunks.fileStats()).size).toBe(0);
    // Read again later, still the same: recorded now.
    expect(await run()).toMatchObject({ unchanged: 2 });
    expect((await store.chunks.fileStats()).size).toBe(2);
    // A record made less than the margin after the file's last change does not vouch for it.
    const changedNs = lstatSync(join(book, 'b.md'), { bigint: true }).ctimeNs;
    await changeUnseen(changedNs + RACY_MARGIN_NS / 2n);
    expect(await run()).toMatchObject({ replaced: 1 });
    expect(await titles()).toEqual(['Alpha v2', 'Beta']);
  });

  it('reads every file recorded after now: the clock went backwards since', async () => {
    await run();
    await changeUnseen(LATER() + 3_600_000_000_000n);
    expect(await run()).toMatchObject({ replaced: 1, unchanged: 1 });
    expect(await titles()).toEqual(['Alpha v2', 'Beta']);
  });

  it('hashes every file of a store with no records (one made before them), then records them', async () => {
    await run();
    await store.db.query('DELETE FROM file_stats');
    await writeFile(join(book, 'a.md'), '# Alpha v2\n\nChanged.\n');
    expect(await run()).toMatchObject({ replaced: 1, unchanged: 1 });
    expect((await store.chunks.fileStats()).size).toBe(2);
  });

  it('reads a renamed file as a new one and forgets the old record with its document', async () => {
    await run();
    await rename(join(book, 'a.md'), join(book, 'c.md'));
    expect(await run({ prune: true })).toMatchObject({ added: 1, removed: ['a.md'] });
    expect([...(await store.chunks.fileStats()).keys()].sort()).toEqual(['b.md', 'c.md']);
  });

  it('skips a file replaced by a symbolic link, forgetting its record, as a full read does', async () => {
    await run();
    await unlink(join(book, 'a.md'));
    await symlink(join(book, 'b.md'), join(book, 'a.md'));
    const summary = await run();
    expect(summary.skipped).toMatchObject([{ source: 'a.md', kind: 'symbolic_link' }]);
    expect([...(await store.chunks.fileStats()).keys()]).toEqual(['b.md']);
    expect({ ...(await run({ rehash: true })), elapsedMs: 0 }).toEqual({
      ...summary,
      elapsedMs: 0,
    });
  });

  it('skips a recorded file over a lower size limit, as a full read does', async () => {
    await run();
    const summary = await run({ maxFileBytes: 10 });
    expect(summary).toMatchObject({ unchanged: 0 });
    expect(summary.skipped.map((s) => s.kind)).toEqual(['too_large', 'too_large']);
  });

  it('leaves the store as a full ingestion does after a series of changes', async () => {
    const full = await createStore(await openPgliteDb('memory://'));
    try {
      const both = async (options: Partial<IngestOptions> = {}) => {
        const quick = await run(options);
        const read = await ingest(book, { store: full, rehash: true, ...options });
        expect({ ...quick, elapsedMs: 0 }).toEqual({ ...read, elapsedMs: 0 });
        expect(await store.chunks.all()).toEqual(await full.chunks.all());
        expect(await store.chunks.contentHash()).toBe(await full.chunks.contentHash());
        expect(await store.meta.get('ingest_roots')).toEqual(await full.meta.get('ingest_roots'));
      };
      await both();
      await both();
      await writeFile(join(book, 'b.md'), '# Beta v2\n\nA changed beta.\n');
      await writeFile(join(book, 'd.rst'), 'Delta\n=====\n\nA new file.\n');
      await both();
      await unlink(join(book, 'a.md'));
      await both();
      await both({ prune: true });
      await both();
    } finally {
      await full.close();
    }
  });
});
