import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { ingest, type IngestProgress } from './ingest.js';

const fixtures = fileURLToPath(new URL('./fixtures/book', import.meta.url));

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

  it('writes nothing when one file fails to parse', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'cohort-broken-'));
    await writeFile(
      join(broken, 'a.md'),
      '# Fine\n\nA perfectly good file with enough text in it.',
    );
    await writeFile(join(broken, 'b.md'), '---\ntitle: [oops\n---\n# Bad');
    const count = await store.chunks.count();
    const error = await ingest(broken, { store }).catch((e: unknown) => e);
    expect(isCohortError(error, 'invalid_input')).toBe(true);
    expect(String(error)).toContain('b.md');
    expect(await store.chunks.count()).toBe(count);
    await rm(broken, { recursive: true, force: true });
  });

  it('stops with an aborted error when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await ingest(dir, { store, signal: controller.signal }).catch((e: unknown) => e);
    expect(isCohortError(error, 'aborted')).toBe(true);
  });
});
