import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../schema/index.js';
import { freshFolderSnapshot } from '../test/fresh-folder-snapshot.js';
import { ChunkRepo, type DocumentWrite } from './chunk-repo.js';
import type { Db } from './db.js';
import { copyText, sendRows } from './insert-rows.js';
import { migrate } from './migrations.js';
import { openPgliteDb } from './pglite-db.js';
import { openPgliteWorkerDb } from './pglite-worker-db.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-insert-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let snapshot: string | undefined;
beforeAll(async () => {
  snapshot = await freshFolderSnapshot();
}, 60_000);

/** Text a parser may give: every character COPY's text format escapes, and its markers. */
const AWKWARD = [
  'tab\there, LF\nand CR\r\nCRLF, a lone CR\r',
  'a backslash \\ and \\N and \\. alone:\n\\.\n',
  `quotes ' " \`, a trailing backslash \\`,
  'unicode: é ü 日本語 🤖 \u2028 \u00a0 \u0001 \u007f',
  '',
  ' ',
];

/** Documents whose chunks hold {@link AWKWARD} text in every text and JSONB column. */
function awkwardDocuments(): DocumentWrite[] {
  return AWKWARD.map((text, d) => {
    const source = `dir ${d}/näme\t${d}.md`;
    const chunks: ChunkRecord[] = AWKWARD.map((other, ord) => ({
      id: `${source}#${ord}`,
      source,
      ord,
      title: other || 'Untitled',
      headingPath: [text, other],
      domain: 'general',
      text: `${text}${other}`,
      hash: `h${d}-${ord}`,
      metadata: { [other || 'empty']: text, nested: { list: [other, 1, null, true] } },
    }));
    return { document: { source, title: text || 'Doc', hash: `h${d}`, domain: 'general' }, chunks };
  });
}

/** Every chunk row as the engine prints it, in id order. */
async function chunkRows(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ row: string }>(
    'SELECT c::text AS row FROM chunks c ORDER BY id',
  );
  return rows.map(({ row }) => row);
}

/** `db` without its COPY, in and out of transactions: it takes the INSERTs PostgreSQL takes. */
function withoutCopy(db: Db): Db {
  const bare: Db = {
    engine: db.engine,
    query: db.query,
    exec: db.exec,
    transaction: (fn) => db.transaction((tx) => fn(withoutCopy(tx))),
    close: db.close,
  };
  return bare;
}

describe('copyText', () => {
  it("writes each row as a line of tab-separated values, escaping COPY's specials", () => {
    expect(
      copyText([
        ['a.md', 'line 1\nline 2\r\n\ttabbed \\ back', 3],
        ['b.md', null, undefined],
      ]),
    ).toBe('a.md\tline 1\\nline 2\\r\\n\\ttabbed \\\\ back\t3\nb.md\t\\N\t\\N\n');
  });
});

describe('sendRows', () => {
  it('sends multi-row INSERTs to an engine that cannot COPY', async () => {
    const sent: string[] = [];
    const db: Pick<Db, 'query'> = {
      query: <Row>(sql: string) => {
        sent.push(sql);
        return Promise.resolve({ rows: [] as Row[] });
      },
    };
    await Promise.all(sendRows(db, 't', ['a', 'b'], [[1, 'x']]));
    expect(sent).toEqual(['INSERT INTO t (a, b) VALUES ($1, $2)']);
  });

  it.each([
    ['in memory, in this thread', () => openPgliteDb('memory://')],
    [
      "on the folder's PGlite thread",
      (path: string) => openPgliteWorkerDb(path, snapshot ? { snapshot } : {}),
    ],
  ])(
    'stores through COPY exactly the rows the INSERTs store (PGlite %s)',
    async (_, open) => {
      const copied = await open(join(dir, `copy-${Math.random()}`));
      const inserted = withoutCopy(await open(join(dir, `insert-${Math.random()}`)));
      try {
        expect(copied.copyFrom).toBeTypeOf('function');
        for (const db of [copied, inserted]) {
          await migrate(db);
          await new ChunkRepo(db).applyIngestion({ write: awkwardDocuments() });
        }
        const rows = await chunkRows(copied);
        expect(rows).toHaveLength(AWKWARD.length ** 2);
        expect(rows).toEqual(await chunkRows(inserted));
        // And read back as the chunks written (JSONB keys aside, which the engine orders).
        const stored = await new ChunkRepo(copied).all();
        const written = awkwardDocuments().flatMap(({ chunks }) => chunks);
        expect(
          stored.map(({ text, title, headingPath }) => ({ text, title, headingPath })),
        ).toEqual(
          [...written]
            .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.ord - b.ord))
            .map(({ text, title, headingPath }) => ({ text, title, headingPath })),
        );
      } finally {
        await copied.close();
        await inserted.close();
      }
    },
    60_000,
  );
});
