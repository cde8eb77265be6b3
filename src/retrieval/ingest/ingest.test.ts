import { execFileSync } from 'node:child_process';
import { cp, link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { sha1 } from './chunker.js';
import {
  documentHash,
  findIngestEntries,
  ingest,
  MAX_SECTION_CHARS,
  prepareDocument,
  readCapped,
  type IngestProgress,
} from './ingest.js';
import { describeSkipped } from './skipped-file.js';

const fixtures = fileURLToPath(new URL('./fixtures/book', import.meta.url));

/**
 * Runs `test` over a new temporary book folder holding `a.md` (one section about alpha) and a
 * new `memory://` store, and removes both afterwards.
 */
async function withAlphaBook(
  prefix: string,
  test: (book: string, store: Store) => Promise<void>,
): Promise<void> {
  const book = await mkdtemp(join(tmpdir(), prefix));
  const fresh = await createStore(await openPgliteDb('memory://'));
  try {
    await writeFile(join(book, 'a.md'), '# Alpha\n\nA section about alpha with enough words.\n');
    await test(book, fresh);
  } finally {
    await fresh.close();
    await rm(book, { recursive: true, force: true });
  }
}

describe('ingest', () => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    store = await createStore(await openPgliteDb('memory://'));
    dir = await mkdtemp(join(tmpdir(), 'cohort-ingest-'));
    await cp(fixtures, dir, { recursive: true });
    // Folders that must be skipped: dependencies and dot-folders.
    await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true });
    await writeFile(
      join(dir, 'node_modules', 'pkg', 'readme.md'),
      '# Dependency\n\nNot part of the book at all.',
    );
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, '.git', 'notes.md'), '# Hidden\n\nNot part of the book either.');
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests supported files with relative sources, domains and progress', async () => {
    const progress: IngestProgress[] = [];
    const summary = await ingest(dir, { store, onProgress: (p) => progress.push(p) });
    expect(summary).toMatchObject({ files: 2, added: 2, replaced: 0, unchanged: 0, missing: [] });
    expect(progress.map((p) => `${p.done}/${p.total} ${p.file}`)).toEqual([
      '1/2 guide.mdx',
      '2/2 nested/topics.rst',
    ]);
    const chunks = await store.chunks.all();
    expect(summary.chunks).toBe(chunks.length);
    expect(new Set(chunks.map((c) => c.source))).toEqual(
      new Set(['guide.mdx', 'nested/topics.rst']),
    );
    const servo = chunks.find((c) => c.headingPath.at(-1) === 'What is a Servo?');
    expect(servo).toMatchObject({ title: 'Robot Guide', domain: 'glossary' });
    expect(chunks.find((c) => c.headingPath.at(-1) === 'Capstone Project')?.domain).toBe(
      'capstone',
    );
    expect(typeof servo?.metadata.line).toBe('number');
  });

  it('skips unchanged files and replaces a changed file’s chunks', async () => {
    const before = await store.chunks.all();
    const again = await ingest(dir, { store });
    expect(again).toMatchObject({ added: 0, replaced: 0, unchanged: 2, chunks: 0 });
    expect(await store.chunks.count()).toBe(before.length);

    await writeFile(
      join(dir, 'guide.mdx'),
      '# Guide v2\n\nA completely rewritten guide with one new section of body text.',
    );
    const changed = await ingest(dir, { store });
    expect(changed).toMatchObject({ replaced: 1, unchanged: 1 });
    const guide = (await store.chunks.all()).filter((c) => c.source === 'guide.mdx');
    expect(guide.map((c) => c.headingPath)).toEqual([['Guide v2']]);
  });

  it('prepares the same document from a hash handed in as from its own', () => {
    // An ingestion hashes each file's text to tell unchanged ones, and hands that hash on.
    for (const [source, text] of [
      ['pump.rst', 'Pump\n====\n\nRun the pump.\n'],
      ['guide.md', '# Guide\n\nA section of body text.\n'],
    ] as const) {
      const own = prepareDocument(source, text);
      expect(own.document.hash).toBe(documentHash(source, text));
      expect(prepareDocument(source, text, documentHash(source, text))).toEqual(own);
    }
  });

  it('re-reads a file stored by an older parser of its format, though its text is the same', async () => {
    // A store written before the reStructuredText parser read tabs holds the text's bare hash.
    const text = 'Pump\n====\n\n.. tabs::\n\n   .. tab:: Debian\n\n      Run the pump.\n';
    expect(documentHash('pump.rst', text)).not.toBe(sha1(text));
    expect(documentHash('pump.md', text)).not.toBe(sha1(text));
    expect(documentHash('pump.md', text)).not.toBe(documentHash('pump.rst', text));
    const fresh = await createStore(await openPgliteDb('memory://'));
    const folder = await mkdtemp(join(tmpdir(), 'cohort-parser-'));
    try {
      await writeFile(join(folder, 'pump.rst'), text);
      await ingest(folder, { store: fresh });
      await fresh.chunks.upsertDocument(
        { source: 'pump.rst', title: 'Pump', hash: sha1(text), domain: 'general' },
        [],
      );
      expect(await ingest(folder, { store: fresh })).toMatchObject({ replaced: 1, unchanged: 0 });
      expect((await fresh.chunks.all()).map((c) => c.text)).toEqual(['Debian:\n\nRun the pump.']);
    } finally {
      await fresh.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('re-reads a file stored by parser 6, before drawn tables were read as tables', async () => {
    const text =
      'Keys\n====\n\n+------+-----+\n| Dir  | Key |\n+======+=====+\n| priv | yes |\n+------+-----+\n';
    expect(documentHash('keys.rst', text)).not.toBe(sha1(`${text}\u0000parser 6`));
  });

  it('reports files that disappeared and removes them only when pruning', async () => {
    await rm(join(dir, 'nested'), { recursive: true });
    const kept = await ingest(dir, { store });
    expect(kept.missing).toEqual(['nested/topics.rst']);
    expect((await store.chunks.documentHashes()).has('nested/topics.rst')).toBe(true);
    const pruned = await ingest(dir, { store, prune: true });
    expect(pruned.removed).toEqual(['nested/topics.rst']);
    expect((await store.chunks.documentHashes()).has('nested/topics.rst')).toBe(false);
  });

  it('rejects a missing folder or one with nothing to ingest, leaving the store unchanged', async () => {
    const count = await store.chunks.count();
    const empty = await mkdtemp(join(tmpdir(), 'cohort-empty-'));
    await writeFile(join(empty, 'notes.txt'), 'not a document');
    for (const target of [join(dir, 'no-such-folder'), empty, join(empty, 'notes.txt')]) {
      const error = await ingest(target, { store }).catch((e: unknown) => e);
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect(String(error)).toContain(target);
    }
    await rm(empty, { recursive: true, force: true });
    expect(await store.chunks.count()).toBe(count);
  });

  it('stops with an aborted error when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await ingest(dir, { store, signal: controller.signal }).catch((e: unknown) => e);
    expect(isCohortError(error, 'aborted')).toBe(true);
  });

  it('skips files that are not text, naming each, and ingests the rest', async () => {
    const mixed = await mkdtemp(join(tmpdir(), 'cohort-mixed-'));
    const body = (title: string) =>
      `# ${title}\n\nA section about ${title} with enough words to keep.\n`;
    await writeFile(join(mixed, 'a.md'), body('Alpha'));
    await writeFile(join(mixed, 'b.md'), `# Beta\n\nNUL here \u0000 in the text.\n`);
    await writeFile(join(mixed, 'c.md'), body('Gamma'));
    await writeFile(join(mixed, 'd.md'), Buffer.from([0x23, 0x20, 0xc3, 0x28, 0x0a]));
    const utf16 = (text: string, bom: boolean) =>
      Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
    await writeFile(join(mixed, 'e.md'), utf16(body('Epsilon'), true));
    await writeFile(join(mixed, 'f.md'), utf16(body('Phi'), false));
    await writeFile(
      join(mixed, 'g.md'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body('Eta'))]),
    );
    await writeFile(join(mixed, 'h.md'), 'x'.repeat(2048));
    const fresh = await createStore(await openPgliteDb('memory://'));
    try {
      const summary = await ingest(mixed, { store: fresh, maxFileBytes: 1024 });
      expect(summary.skipped.map((s) => s.source)).toEqual(['b.md', 'd.md', 'h.md']);
      expect(summary.skipped[0]?.reason).toMatch(/NUL/);
      expect(summary.skipped[1]?.reason).toMatch(/UTF-8/);
      expect(summary.skipped[2]?.reason).toMatch(/1024-byte limit/);
      expect(summary.added).toBe(5);
      const titles = new Set((await fresh.chunks.all()).map((c) => c.title));
      expect(titles).toEqual(new Set(['Alpha', 'Gamma', 'Epsilon', 'Phi', 'Eta']));
    } finally {
      await fresh.close();
      await rm(mixed, { recursive: true, force: true });
    }
  });

  it('skips a file whose frontmatter cannot be read, naming it, and ingests the rest', async () => {
    // One file with invalid YAML frontmatter stopped the whole folder's ingestion (exit 2).
    await withAlphaBook('cohort-frontmatter-', async (book, fresh) => {
      await writeFile(join(book, 'b.md'), '---\ntitle: [unclosed\n---\n# Beta\n\nAbout beta.\n');
      const summary = await ingest(book, { store: fresh });
      expect(summary).toMatchObject({ files: 2, added: 1 });
      expect(summary.skipped).toEqual([
        {
          source: 'b.md',
          // The place in words, and the file named once (by the skip), not "b.md: b.md:2:17: …".
          reason: expect.stringMatching(/^line 2, column 17: invalid YAML frontmatter/),
          kind: 'invalid_document',
        },
      ]);
      expect(new Set((await fresh.chunks.all()).map((c) => c.title))).toEqual(new Set(['Alpha']));
    });
  });

  it('skips a folder whose name is not UTF-8, naming it, and ingests the rest', async () => {
    // Node lists such a name with U+FFFD, a folder no path reaches: its ENOENT stopped the whole
    // ingestion as 'Cannot read the folder "<book>": ENOENT' (exit 2).
    await withAlphaBook('cohort-folder-name-', async (book, fresh) => {
      const folder = Buffer.concat([Buffer.from(`${book}/bad`), Buffer.from([0xff])]);
      await mkdir(folder);
      await writeFile(Buffer.concat([folder, Buffer.from('/b.md')]), '# Beta\n\nAbout beta.\n');
      const summary = await ingest(book, { store: fresh });
      expect(summary).toMatchObject({ files: 1, added: 1 });
      expect(summary.skipped).toEqual([
        {
          source: 'bad\uFFFD',
          reason: expect.stringMatching(/cannot be listed: its name is not valid UTF-8.*rename/),
          kind: 'unreadable',
        },
      ]);
      expect(describeSkipped(summary.skipped)).toBe('1 skipped (1 unreadable)');
    });
  });

  it('skips a folder whose path is too long to list, and keeps what it stored from it', async () => {
    // 'nested' holds folders 3,600 characters deep: listable under a short root, not once the
    // book is moved 500 characters deeper (ENAMETOOLONG stopped the whole ingestion).
    await withAlphaBook('cohort-deep-', async (book, fresh) => {
      const deep = Array.from({ length: 300 }, () => 'd0123456789').join('/');
      await mkdir(join(book, 'nested', deep), { recursive: true });
      await writeFile(join(book, 'nested', deep, 'b.md'), '# Beta\n\nAbout beta.\n');
      const chunks = { chunks: fresh.chunks };
      expect(await ingest(book, { store: chunks })).toMatchObject({ files: 2, added: 2 });
      const from = join(book, 'x'.repeat(250), 'y'.repeat(250));
      await mkdir(from, { recursive: true });
      await writeFile(join(book, 'staying.md'), '# Gamma\n\nAbout gamma.\n');
      execFileSync('sh', ['-c', 'mv "$1"/a.md "$1"/staying.md "$1"/nested "$2"/', '-', book, from]);
      try {
        const summary = await ingest(from, { store: chunks, prune: true });
        expect(summary.skipped).toHaveLength(1);
        expect(summary.skipped[0]).toMatchObject({
          source: expect.stringMatching(/^nested\/d0123456789\//),
          reason: expect.stringMatching(
            /cannot be listed: its path is longer than the system allows/,
          ),
          kind: 'unreadable',
        });
        // What it stored from the folder it could not list is neither missing nor pruned.
        expect(summary).toMatchObject({
          files: 2,
          added: 1,
          unchanged: 1,
          missing: [],
          removed: [],
        });
        expect((await fresh.chunks.documentHashes()).has(`nested/${deep}/b.md`)).toBe(true);
      } finally {
        // Node's rm cannot reach a path this long; GNU rm walks down folder by folder.
        execFileSync('rm', ['-rf', join(book, 'x'.repeat(250))]);
      }
    });
  });

  it('skips a file whose frontmatter holds a NUL character or a lone surrogate, naming it', async () => {
    // YAML's "\0" and "\ud800" escapes made such strings from valid UTF-8; the database refused
    // them and the whole ingestion failed with "unexpected error: invalid byte sequence … 0x00".
    await withAlphaBook('cohort-frontmatter-nul-', async (book, fresh) => {
      await writeFile(join(book, 'b.md'), '---\ntitle: "B\\0eta"\n---\n# Beta\n\nAbout beta.\n');
      await writeFile(join(book, 'c.md'), '---\ntags: ["\\ud800"]\n---\n# Gamma\n\nAbout gamma.\n');
      const summary = await ingest(book, { store: fresh });
      expect(summary).toMatchObject({ files: 3, added: 1 });
      expect(summary.skipped).toEqual([
        {
          source: 'b.md',
          reason:
            'frontmatter title holds a NUL character at position 2 (YAML escapes such as "\\0" included)',
          kind: 'invalid_document',
        },
        {
          source: 'c.md',
          reason:
            'frontmatter tags.0 holds an unpaired UTF-16 surrogate (U+D800) at position 1 (YAML escapes such as "\\0" included)',
          kind: 'invalid_document',
        },
      ]);
    });
  });

  it.skipIf(process.platform === 'win32')(
    'names FIFOs and sockets of a supported name as skipped, never opening them',
    async () => {
      await withAlphaBook('cohort-special-', async (book, fresh) => {
        await symlink(join(book, 'a.md'), join(book, 'link.md'));
        execFileSync('mkfifo', [join(book, 'pipe.md')]);
        execFileSync('mkfifo', [join(book, 'pipe.txt')]);
        const socket = createServer();
        await new Promise<void>((done) => socket.listen(join(book, 'socket.rst'), done));
        try {
          const summary = await ingest(book, { store: fresh });
          expect(summary).toMatchObject({ files: 1, added: 1 });
          expect(summary.skipped).toEqual([
            {
              source: 'link.md',
              reason: expect.stringMatching(/symbolic link/),
              kind: 'symbolic_link',
            },
            {
              source: 'pipe.md',
              reason: 'not a regular file but a FIFO (named pipe): only regular files are ingested',
              kind: 'not_regular_file',
            },
            {
              source: 'socket.rst',
              reason: 'not a regular file but a socket: only regular files are ingested',
              kind: 'not_regular_file',
            },
          ]);
          expect(describeSkipped(summary.skipped)).toBe(
            '3 skipped (1 symbolic link, 2 not regular files)',
          );
        } finally {
          socket.close();
        }
      });
    },
  );

  it('says a folder holding U+FFFD came with bytes that are not UTF-8, not that it is unreadable', async () => {
    // Found by an outside tester: `cohort ingest $'book\xff'` said the folder "is not a readable folder".
    await expect(findIngestEntries(join(tmpdir(), 'book\uFFFD'))).rejects.toThrow(
      /Cannot ingest ".*book\uFFFD": it holds U\+FFFD .* bytes that are not UTF-8/,
    );
  });

  it.skipIf(process.platform === 'win32')(
    'skips a file replaced by a FIFO after the folder was listed, without waiting on it',
    async () => {
      await withAlphaBook('cohort-fifo-race-', async (book, fresh) => {
        await writeFile(join(book, 'b.md'), '# Beta\n\nA section about beta with enough words.\n');
        const entries = await findIngestEntries(book);
        await rm(join(book, 'b.md'));
        execFileSync('mkfifo', [join(book, 'b.md')]);
        const summary = await ingest(book, { store: fresh, entries });
        expect(summary).toMatchObject({ files: 2, added: 1 });
        expect(summary.skipped).toEqual([
          {
            source: 'b.md',
            reason: 'not a regular file but a FIFO (named pipe): only regular files are ingested',
            kind: 'not_regular_file',
          },
        ]);
      });
    },
    10_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'says a file whose name is not UTF-8 is skipped for its name, not that it is missing',
    async () => {
      await withAlphaBook('cohort-bad-name-', async (book, fresh) => {
        // Linux file names are bytes: 0xff is no UTF-8, so Node lists it as U+FFFD.
        const raw = Buffer.concat([
          Buffer.from(`${book}/bad`),
          Buffer.from([0xff]),
          Buffer.from('name.md'),
        ]);
        await writeFile(raw, '# Bad\n\nA section with enough words in it.\n');
        const summary = await ingest(book, { store: fresh });
        expect(summary).toMatchObject({ files: 2, added: 1 });
        expect(summary.skipped).toEqual([
          {
            source: 'bad\uFFFDname.md',
            reason: expect.stringContaining('its name is not valid UTF-8'),
            kind: 'unreadable',
          },
        ]);
      });
    },
  );

  it('names symbolic links instead of following them, and reads nothing they lead to', async () => {
    const book = await mkdtemp(join(tmpdir(), 'cohort-links-'));
    const outside = await mkdtemp(join(tmpdir(), 'cohort-outside-'));
    await writeFile(join(book, 'a.md'), '# Alpha\n\nA section about alpha with enough words.\n');
    await writeFile(join(outside, 'secret.md'), '# Secret\n\nA file outside the book folder.\n');
    await mkdir(join(outside, 'more'));
    await writeFile(join(outside, 'more', 'b.md'), '# Beta\n\nAnother file outside the book.\n');
    await symlink(join(outside, 'secret.md'), join(book, 'secret.md'));
    await symlink(join(outside, 'more'), join(book, 'more'));
    await symlink(book, join(book, 'loop'));
    await symlink(join(outside, 'gone.md'), join(book, 'dangling.md'));
    await symlink(join(outside, 'secret.md'), join(book, 'picture.png'));
    const fresh = await createStore(await openPgliteDb('memory://'));
    try {
      const summary = await ingest(book, { store: fresh });
      expect(summary).toMatchObject({ files: 1, added: 1 });
      expect(summary.skipped.map((s) => s.source)).toEqual([
        'dangling.md',
        'loop',
        'more',
        'secret.md',
      ]);
      expect(summary.skipped[0]?.reason).toMatch(/symbolic link, not followed/);
      expect(new Set((await fresh.chunks.all()).map((c) => c.title))).toEqual(new Set(['Alpha']));
      await rm(join(book, 'a.md'));
      const error: unknown = await ingest(book, { store: fresh }).catch((e: unknown) => e);
      expect(isCohortError(error) && error.message).toMatch(
        /only symbolic links, which are not followed: dangling\.md, loop, more/,
      );
    } finally {
      await fresh.close();
      await rm(book, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('does not follow a file swapped for a symbolic link after the folder was listed', async () => {
    // The listing skips links; this is the read of a name that became one since.
    const base = await mkdtemp(join(tmpdir(), 'cohort-swapped-link-'));
    try {
      await writeFile(join(base, 'secret.md'), '# Secret\n\nOutside the book.\n');
      await symlink(join(base, 'secret.md'), join(base, 'a.md'));
      expect(await readCapped(join(base, 'a.md'), 1024)).toEqual({
        ok: false,
        kind: 'symbolic_link',
        reason:
          'a symbolic link, not followed: ingest the folder it points to, or copy the file in',
      });
      const read = await readCapped(join(base, 'secret.md'), 1024);
      expect(read.ok).toBe(true);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('says a file removed after the folder was listed is gone, not that it cannot be read', async () => {
    // Deleting a folder's files during an ingestion of 20,000 of them named each 'cannot be read
    // (ENOENT)', a reason a user could not act on.
    const base = await mkdtemp(join(tmpdir(), 'cohort-vanished-'));
    try {
      expect(await readCapped(join(base, 'gone.md'), 1024)).toEqual({
        ok: false,
        kind: 'unreadable',
        reason:
          'removed or renamed after the folder was listed (ENOENT); ingest again once the folder stops changing',
      });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('reads a hard-linked file as the file it is: a snapshot tree (cp -al) ingests whole', async () => {
    // Kept on purpose (docs/book-assistant.md, "What ingest reads"): a hard link is the file
    // itself, in the folder, not a path that leads out of it; snapshot trees (cp -al, rsync
    // --link-dest) are all hard links. A symbolic link beside them is still named, not read.
    const base = await mkdtemp(join(tmpdir(), 'cohort-hard-links-'));
    const book = join(base, 'book');
    const snapshot = join(base, 'snapshot');
    const outside = join(base, 'outside');
    for (const folder of [join(book, 'part'), join(snapshot, 'part'), outside])
      await mkdir(folder, { recursive: true });
    await writeFile(join(book, 'a.md'), '# Alpha\n\nA section about alpha with enough words.\n');
    await writeFile(
      join(book, 'part', 'b.md'),
      '# Beta\n\nA section about beta with enough words.\n',
    );
    await writeFile(
      join(outside, 'notes.md'),
      '# Notes\n\nKept outside, linked into the snapshot.\n',
    );
    await link(join(book, 'a.md'), join(snapshot, 'a.md'));
    await link(join(book, 'part', 'b.md'), join(snapshot, 'part', 'b.md'));
    await link(join(outside, 'notes.md'), join(snapshot, 'notes.md'));
    // Two names of one file in the folder: two documents, as two copies would be.
    await link(join(book, 'a.md'), join(snapshot, 'part', 'a-again.md'));
    await symlink(join(outside, 'notes.md'), join(snapshot, 'linked.md'));
    // The folder named may itself be reached through a symbolic link: it is the one you chose.
    await symlink(snapshot, join(base, 'named'));
    const fresh = await createStore(await openPgliteDb('memory://'));
    try {
      const summary = await ingest(join(base, 'named'), { store: fresh });
      expect(summary).toMatchObject({ files: 4, added: 4 });
      expect(summary.skipped.map((s) => [s.source, s.kind])).toEqual([
        ['linked.md', 'symbolic_link'],
      ]);
      expect(new Set((await fresh.chunks.all()).map((c) => c.source))).toEqual(
        new Set(['a.md', 'notes.md', 'part/a-again.md', 'part/b.md']),
      );
    } finally {
      await fresh.close();
      await rm(base, { recursive: true, force: true });
    }
  });

  it('stores an ingestion whole: a failure while writing leaves the store as it was', async () => {
    const many = await mkdtemp(join(tmpdir(), 'cohort-many-'));
    for (let i = 0; i < 40; i++) {
      const sections = Array.from(
        { length: 20 },
        (_, j) => `## Part ${j}\n\n${'Words about part ' + j + ' of file ' + i + '. '.repeat(8)}`,
      );
      await writeFile(
        join(many, `f${String(i).padStart(2, '0')}.md`),
        `# File ${i}\n\n${sections.join('\n\n')}`,
      );
    }
    const db = await openPgliteDb('memory://');
    const fresh = await createStore(db);
    // The engine fails when the chunks of f30.md are written, as a crash or a full disk would.
    const failing = {
      ...db,
      transaction: <T>(fn: (tx: typeof db) => Promise<T>) =>
        db.transaction((tx) =>
          fn({
            ...tx,
            query: async (sql: string, params?: unknown[]) => {
              if (sql.startsWith('INSERT INTO chunks') && params?.includes('f30.md'))
                throw new Error('disk full');
              return tx.query(sql, params);
            },
            // PGlite loads the chunks with a COPY: it fails there the same way.
            ...(tx.copyFrom
              ? {
                  copyFrom: async (table: string, columns: readonly string[], text: string) => {
                    if (table === 'chunks' && text.includes('f30.md')) throw new Error('disk full');
                    return tx.copyFrom?.(table, columns, text);
                  },
                }
              : {}),
          } as typeof db),
        ),
    };
    try {
      const broken = await createStore(failing as typeof db);
      await expect(ingest(many, { store: broken })).rejects.toThrow('disk full');
      expect(await fresh.chunks.count()).toBe(0);
      expect((await fresh.chunks.documentHashes()).size).toBe(0);
      const summary = await ingest(many, { store: fresh });
      expect(summary.added).toBe(40);
    } finally {
      await fresh.close();
      await rm(many, { recursive: true, force: true });
    }
  });
});

describe('ingest: a file with nothing to search', () => {
  it('names a file that holds headings only, and not again when it is unchanged', async () => {
    // Found at ten times the size: a file of 100,000 headings was reported "1 added · 0 chunks"
    // with no word that nothing in it can be found.
    const store = await createStore(await openPgliteDb('memory://'));
    const dir = await mkdtemp(join(tmpdir(), 'cohort-empty-'));
    try {
      await writeFile(join(dir, 'outline.md'), '# Part one\n\n## Chapter 1\n\n## Chapter 2\n');
      await writeFile(join(dir, 'page.md'), '# Page\n\nA page with a sentence to find.\n');
      const first = await ingest(dir, { store });
      expect(first).toMatchObject({ added: 2, empty: ['outline.md'] });
      const again = await ingest(dir, { store });
      expect(again).toMatchObject({ unchanged: 2, empty: [] });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ingest: two folders into one store', () => {
  async function folder(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-root-'));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(join(dir, name, '..'), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return dir;
  }

  it("refuses a folder whose file has another folder's relative path, and changes nothing", async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    try {
      const first = await folder({ 'README.md': '# First\n\nThe first book.\n' });
      const second = await folder({
        'README.md': '# Second\n\nThe second book.\n',
        'other.md': '# Other\n\nMore.\n',
      });
      await ingest(first, { store });
      await expect(ingest(second, { store })).rejects.toSatisfy(
        (error: unknown) =>
          isCohortError(error, 'conflict') &&
          error.message.includes('"README.md"') &&
          error.message.includes(first) &&
          error.message.includes('--data-dir'),
      );
      const documents = await store.chunks.documents();
      expect(documents.map((d) => [d.source, d.title])).toEqual([['README.md', 'First']]);
      // --replace lets the second folder take README.md over.
      const replaced = await ingest(second, { store, replace: true });
      expect(replaced).toMatchObject({ added: 1, replaced: 1, missing: [] });
      expect((await store.chunks.documents()).map((d) => [d.source, d.title])).toEqual([
        ['README.md', 'Second'],
        ['other.md', 'Other'],
      ]);
      // README.md is the second folder's now: the first folder clashes on it in turn.
      await expect(ingest(first, { store })).rejects.toSatisfy((error: unknown) =>
        isCohortError(error, 'conflict'),
      );
      // The first folder itself can still be ingested again.
      await writeFile(join(first, 'README.md'), '# First\n\nThe first book, revised.\n');
      expect((await ingest(first, { store, replace: true })).replaced).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("keeps both folders' distinct files, and --prune removes only the pruned folder's", async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    try {
      const first = await folder({ 'a.md': '# A\n\nAlpha.\n', 'b.md': '# B\n\nBeta.\n' });
      const second = await folder({ 'c.md': '# C\n\nGamma.\n' });
      await ingest(first, { store });
      const added = await ingest(second, { store, prune: true });
      expect(added).toMatchObject({ added: 1, missing: [], removed: [] });
      await rm(join(first, 'b.md'));
      const pruned = await ingest(first, { store, prune: true });
      expect(pruned).toMatchObject({ missing: ['b.md'], removed: ['b.md'] });
      const documents = await store.chunks.documents();
      expect(documents.map((d) => d.source)).toEqual(['a.md', 'c.md']);
    } finally {
      await store.close();
    }
  });
  it('replaces the first-use sample book whole with the first other folder, even where paths clash', async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    try {
      const sample = await folder({
        'intro.md': '# Sample intro\n\nThe sample book.\n',
        'chapter.md': '# Sample chapter\n\nOnly in the sample.\n',
      });
      const mine = await folder({
        'intro.md': '# My intro\n\nMy book.\n',
        'mine.md': '# Mine\n\nMy chapter.\n',
      });
      const other = await folder({ 'extra.md': '# Extra\n\nAnother folder.\n' });
      await ingest(sample, { store, standIn: true });
      // No --replace needed, and none of the sample's chapters stays beside the user's book.
      const summary = await ingest(mine, { store });
      expect(summary).toMatchObject({ added: 1, replaced: 1, standInRemoved: ['chapter.md'] });
      expect(summary.missing).toEqual([]);
      expect((await store.chunks.documents()).map((d) => [d.source, d.title])).toEqual([
        ['intro.md', 'My intro'],
        ['mine.md', 'Mine'],
      ]);
      // Only the stand-in gives way: a third folder adds to the user's book, and the user's
      // intro.md is the user's own now (the sample book clashes with it like any folder).
      expect(await ingest(other, { store })).toMatchObject({ added: 1, standInRemoved: [] });
      expect((await store.chunks.documents()).map((d) => d.source)).toEqual([
        'extra.md',
        'intro.md',
        'mine.md',
      ]);
      await expect(ingest(sample, { store })).rejects.toSatisfy((error: unknown) =>
        isCohortError(error, 'conflict'),
      );
    } finally {
      await store.close();
    }
  });
  it('records which folder documents came from in their transaction: all of it or none', async () => {
    const db = await openPgliteDb('memory://');
    const store = await createStore(db);
    try {
      const first = await folder({ 'README.md': '# First\n\nThe first book.\n' });
      // The folder record fails to save: the documents must not stay without it, or the next
      // folder's README.md would replace this one's unnoticed.
      await db.query(`CREATE FUNCTION refuse_roots() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.key = 'ingest_roots' THEN RAISE EXCEPTION 'meta write refused'; END IF;
          RETURN NEW;
        END $$`);
      await db.query(
        'CREATE TRIGGER refuse_roots BEFORE INSERT OR UPDATE ON meta FOR EACH ROW EXECUTE FUNCTION refuse_roots()',
      );
      await expect(ingest(first, { store })).rejects.toThrow();
      expect(await store.chunks.documents()).toEqual([]);
      await db.query('DROP TRIGGER refuse_roots ON meta');
      await ingest(first, { store });
      const second = await folder({ 'README.md': '# Second\n\nThe second book.\n' });
      await expect(ingest(second, { store })).rejects.toSatisfy((error: unknown) =>
        isCohortError(error, 'conflict'),
      );
    } finally {
      await store.close();
    }
  });
});

describe('ingest into a store still opening', () => {
  /** `store`, handed over only after `ms` (a new folder's engine starting), as a promise. */
  const later = <T>(store: T, ms = 30): Promise<T> =>
    new Promise((resolve) => setTimeout(() => resolve(store), ms));

  it('gives the same result as into an open store, and reads unchanged files as unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-opening-'));
    await cp(fixtures, dir, { recursive: true });
    await writeFile(
      join(dir, 'huge.md'),
      `# Huge\n\n${'word '.repeat(MAX_SECTION_CHARS / 4)}\n\n# Small\n\nA small section.`,
    );
    const open = await createStore(await openPgliteDb('memory://'));
    const opening = await createStore(await openPgliteDb('memory://'));
    try {
      const direct = await ingest(dir, { store: open });
      const first = await ingest(dir, { store: later(opening) });
      expect({ ...first, elapsedMs: 0 }).toEqual({ ...direct, elapsedMs: 0 });
      expect(first).toMatchObject({ files: 3, added: 3 });
      expect(first.truncated.map((t) => t.source)).toEqual(['huge.md']);
      const strip = (chunks: Awaited<ReturnType<Store['chunks']['all']>>) =>
        chunks.map(({ id, source, title, headingPath, domain, text }) => ({
          ...{ id, source, title, headingPath, domain, text },
        }));
      expect(strip(await opening.chunks.all())).toEqual(strip(await open.chunks.all()));

      // Parsed before the store could say it holds them: still unchanged, and not cut again.
      await writeFile(join(dir, 'guide.mdx'), '# Guide v2\n\nRewritten.');
      const again = await ingest(dir, { store: later(opening) });
      expect(again).toMatchObject({ added: 0, replaced: 1, unchanged: 2, truncated: [] });
      expect((await opening.chunks.all()).filter((c) => c.source === 'guide.mdx')).toHaveLength(1);
    } finally {
      await open.close();
      await opening.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails with the store's own error when it cannot open", async () => {
    const failure = new Error('the folder is locked');
    await expect(ingest(fixtures, { store: Promise.reject(failure) })).rejects.toBe(failure);
  });

  it("refuses another folder's paths once it is open, writing nothing", async () => {
    const store = await createStore(await openPgliteDb('memory://'));
    const first = await mkdtemp(join(tmpdir(), 'cohort-opening-a-'));
    const second = await mkdtemp(join(tmpdir(), 'cohort-opening-b-'));
    try {
      await writeFile(join(first, 'README.md'), '# First\n\nThe first book.\n');
      await writeFile(join(second, 'README.md'), '# Second\n\nThe second book.\n');
      await ingest(first, { store });
      await expect(ingest(second, { store: later(store) })).rejects.toSatisfy((error: unknown) =>
        isCohortError(error, 'conflict'),
      );
      expect((await store.chunks.documents()).map((d) => d.title)).toEqual(['First']);
    } finally {
      await store.close();
      await rm(first, { recursive: true, force: true });
      await rm(second, { recursive: true, force: true });
    }
  });
});
