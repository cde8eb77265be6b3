import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../schema/index.js';
import { ChunkRepo, chunkContentHash, type DocumentWrite } from './chunk-repo.js';
import type { Db } from './db.js';
import { INSERT_BATCH_ROWS } from './insert-rows.js';

/** A statement the fake engine was sent, answered when the test says so. */
interface Sent {
  sql: string;
  answer(error?: Error): void;
}

/**
 * A transaction whose INSERTs wait to be answered one by one (as an engine on another thread
 * answers them), every other statement answered at once.
 */
function heldEngine() {
  const sent: Sent[] = [];
  const tx: Db = {
    engine: 'pglite',
    query: <Row>(sql: string) =>
      sql.startsWith('INSERT INTO documents') || sql.startsWith('INSERT INTO chunks')
        ? new Promise<{ rows: Row[] }>((resolve, reject) => {
            sent.push({
              sql,
              answer: (error) => (error ? reject(error) : resolve({ rows: [] })),
            });
          })
        : Promise.resolve({ rows: [] }),
    exec: () => Promise.resolve(),
    transaction: (fn) => fn(tx),
    close: () => Promise.resolve(),
  };
  return { db: tx, sent };
}

/** `count` documents of `chunksEach` chunks each. */
function documents(count: number, chunksEach: number): DocumentWrite[] {
  return Array.from({ length: count }, (_, d) => {
    const source = `doc-${d}.md`;
    const chunks: ChunkRecord[] = Array.from({ length: chunksEach }, (_, ord) => ({
      id: `${source}#${ord}`,
      source,
      ord,
      title: 'Doc',
      headingPath: [],
      domain: 'general',
      text: `text ${ord}`,
      hash: `h${d}-${ord}`,
      metadata: {},
    }));
    return { document: { source, title: 'Doc', hash: `h${d}`, domain: 'general' }, chunks };
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ChunkRepo.applyIngestion', () => {
  it('sends every batch of rows before the engine has answered the first', async () => {
    const { db, sent } = heldEngine();
    const written: string[][] = [];
    const write = documents(3, INSERT_BATCH_ROWS);
    const applying = new ChunkRepo(db).applyIngestion({
      write,
      onWritten: (sources) => written.push(sources),
    });
    await settle();
    // Three groups of one document each: its row, then its chunks' rows.
    expect(sent.map(({ sql }) => sql.slice(0, 21))).toEqual([
      'INSERT INTO documents',
      'INSERT INTO chunks (i',
      'INSERT INTO documents',
      'INSERT INTO chunks (i',
      'INSERT INTO documents',
      'INSERT INTO chunks (i',
    ]);
    expect(written).toEqual([]);
    for (const statement of sent) statement.answer();
    const { outcomes } = await applying;
    expect([...outcomes.values()]).toEqual(['added', 'added', 'added']);
    // Each batch is heard once written, in order.
    expect(written).toEqual([['doc-0.md'], ['doc-1.md'], ['doc-2.md']]);
  });

  it('says when every batch is sent, before the engine has answered any', async () => {
    const { db, sent } = heldEngine();
    const heard: string[] = [];
    const applying = new ChunkRepo(db).applyIngestion({
      write: documents(2, INSERT_BATCH_ROWS),
      onSent: () => heard.push(`sent ${sent.length}`),
      onWritten: (sources) => heard.push(`written ${sources.join()}`),
    });
    await settle();
    expect(heard).toEqual(['sent 4']);
    for (const statement of sent) statement.answer();
    await applying;
    expect(heard).toEqual(['sent 4', 'written doc-0.md', 'written doc-1.md']);
    // Nothing to write: nothing is sent, and nothing told.
    const quiet: string[] = [];
    await new ChunkRepo(db).applyIngestion({ write: [], onSent: () => quiet.push('sent') });
    expect(quiet).toEqual([]);
  });

  it('fails with the first statement that failed, once every statement sent was answered', async () => {
    const { db, sent } = heldEngine();
    const applying = new ChunkRepo(db).applyIngestion({ write: documents(2, INSERT_BATCH_ROWS) });
    let settled = false;
    applying.catch(() => undefined).finally(() => (settled = true));
    await settle();
    sent[1]!.answer(new Error('value too long'));
    sent[2]!.answer(new Error('current transaction is aborted'));
    await settle();
    // A statement still queued in the engine: the transaction does not end before it.
    expect(settled).toBe(false);
    sent[0]!.answer();
    sent[3]!.answer(new Error('current transaction is aborted'));
    await expect(applying).rejects.toThrow('value too long');
  });
});

describe('chunkContentHash', () => {
  it("is the hash of every chunk's line, its title hashed as its own, however many chunks share a title", () => {
    // Each title is hashed once a call: the lines must be those of each chunk hashing its own.
    const chunks = [...documents(2, 3).flatMap((write) => write.chunks)];
    chunks[4] = { ...chunks[4]!, title: 'Another title' };
    chunks[5] = { ...chunks[5]!, title: '' };
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const lines = chunks.map(
      (chunk) => `${chunk.id}:${chunk.hash}:${chunk.domain}:${md5(chunk.title)}`,
    );
    expect(chunkContentHash(chunks)).toBe(md5(lines.join(',')));
    expect(chunkContentHash([])).toBe(md5(''));
  });
});
