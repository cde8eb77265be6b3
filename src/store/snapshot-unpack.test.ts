import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  copyNonZeroPages,
  readSnapshotWith,
  unpackSnapshot,
  unpackSnapshotInto,
  unpackSnapshotWith,
} from './snapshot-unpack.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-unpack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Member {
  name: string;
  type?: string;
  mode?: number;
  mtime?: number;
  data?: Buffer;
  prefix?: string;
}

/** A ustar archive as PGlite's dump writes one: a header block per member, data padded to 512. */
function tarball(members: Member[], { end = true } = {}): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const header = Buffer.alloc(512);
    const data = member.data ?? Buffer.alloc(0);
    header.write(member.name, 0, 100, 'utf8');
    header.write((member.mode ?? 0o600).toString(8).padStart(7, '0'), 100);
    header.write(data.length.toString(8).padStart(11, '0'), 124);
    header.write((member.mtime ?? 1_700_000_000).toString(8).padStart(11, '0'), 136);
    header.write(member.type ?? '0', 156);
    header.write('ustar', 257);
    if (member.prefix) header.write(member.prefix, 345, 155, 'utf8');
    header.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  if (end) blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

let count = 0;
function write(archive: Buffer): { file: string; dir: string } {
  count += 1;
  const file = join(root, `snapshot-${count}.tar`);
  writeFileSync(file, archive);
  return { file, dir: join(root, `folder-${count}`) };
}

describe('unpackSnapshot', () => {
  it('writes every folder and file with its bytes, mode and modification time', () => {
    // Bigger than the copy buffer, so a file is written in several pieces.
    const wal = Buffer.alloc(2 * 1024 * 1024 + 7, 0);
    wal.write('segment', 1024 * 1024 + 3);
    const { file, dir } = write(
      tarball([
        { name: '/PG_VERSION', mode: 0o640, mtime: 1_600_000_000, data: Buffer.from('17\n') },
        { name: '/base', type: '5', mode: 0o750 },
        { name: '/base/5', type: '5', mode: 0o750 },
        { name: '/base/5/1259', data: Buffer.from('pages') },
        { name: '/pg_wal', type: '5', mode: 0o700 },
        { name: '000000010000000000000001', prefix: '/pg_wal', data: wal },
        { name: '/base/5/empty' },
      ]),
    );
    unpackSnapshot(file, dir);
    expect(readdirSync(dir).sort()).toEqual(['PG_VERSION', 'base', 'pg_wal']);
    expect(readFileSync(join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(statSync(join(dir, 'PG_VERSION')).mode & 0o777).toBe(0o640);
    expect(statSync(join(dir, 'PG_VERSION')).mtimeMs).toBe(1_600_000_000_000);
    expect(statSync(join(dir, 'base/5')).isDirectory()).toBe(true);
    expect(readFileSync(join(dir, 'base/5/1259'), 'utf8')).toBe('pages');
    expect(statSync(join(dir, 'base/5/1259')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'base/5/empty')).length).toBe(0);
    expect(readFileSync(join(dir, 'pg_wal/000000010000000000000001')).equals(wal)).toBe(true);
  });

  it('writes the same folder from its source alone, as the PGlite thread runs it', () => {
    // The thread's code includes the two functions' source (pglite-worker-source.ts): evaluated in
    // a context holding only Buffer, they must need nothing else of this module.
    const wal = Buffer.alloc(2 * 1024 * 1024 + 7, 0);
    wal.write('segment', 1024 * 1024 + 3);
    const { file, dir } = write(
      tarball([
        { name: '/PG_VERSION', mode: 0o640, mtime: 1_600_000_000, data: Buffer.from('17\n') },
        { name: '/cohort.lock', data: Buffer.from('{"pid":1}') },
        { name: '/base', type: '5', mode: 0o750 },
        { name: '/base/5', type: '5', mode: 0o750 },
        { name: '/base/5/1259', data: Buffer.from('pages') },
        { name: '/pg_wal', type: '5', mode: 0o700 },
        { name: '000000010000000000000001', prefix: '/pg_wal', data: wal },
      ]),
    );
    const [read, unpack] = runInNewContext(
      `[(${readSnapshotWith.toString()}), (${unpackSnapshotWith.toString()})]`,
      { Buffer },
    ) as [typeof readSnapshotWith, typeof unpackSnapshotWith];
    const alone = `${dir}-alone`;
    unpack({ fs, join }, read, file, alone);
    unpackSnapshot(file, dir);
    const tree = (folder: string, at = ''): string[] =>
      fs
        .readdirSync(join(folder, at), { withFileTypes: true })
        .flatMap((entry) => {
          const path = join(at, entry.name);
          const stat = statSync(join(folder, path));
          // A folder's modification time is when it was made (the tarball's is not kept).
          if (entry.isDirectory())
            return [`${path} ${stat.mode.toString(8)}`, ...tree(folder, path)];
          const bytes = createHash('sha1')
            .update(readFileSync(join(folder, path)))
            .digest('hex');
          return [`${path} ${stat.mode.toString(8)} ${stat.mtimeMs} ${bytes}`];
        })
        .sort();
    expect(tree(alone)).toEqual(tree(dir));
    expect(tree(alone)).toHaveLength(6);
  });

  it("passes over cohort's own files at the folder's top (a saved folder's lock), not PostgreSQL's", () => {
    const { file, dir } = write(
      tarball([
        { name: '/PG_VERSION', data: Buffer.from('17\n') },
        { name: '/cohort.lock', data: Buffer.from('{"pid":1}') },
        { name: '/cohort-start-cache.json', data: Buffer.from('{}') },
        { name: '/base', type: '5', mode: 0o750 },
        { name: '/base/cohort.lock', data: Buffer.from('not ours') },
      ]),
    );
    unpackSnapshot(file, dir);
    expect(readdirSync(dir).sort()).toEqual(['PG_VERSION', 'base']);
    expect(readdirSync(join(dir, 'base'))).toEqual(['cohort.lock']);
    const written: string[] = [];
    unpackSnapshotInto(
      file,
      {
        mkdirTree: () => undefined,
        writeFile: (path) => written.push(path),
        chmod: () => undefined,
        utime: () => undefined,
      },
      '/pglite/data',
    );
    expect(written).toEqual(['/pglite/data/PG_VERSION', '/pglite/data/base/cohort.lock']);
  });

  it('copies only the pages that are not all zeros, and the bytes come out the same', () => {
    const source = Buffer.alloc(4096 * 3 + 100);
    source[5000] = 7; // the second page
    source[4096 * 3 + 99] = 9; // the short last page
    const target = new Uint8Array(10 + source.length).fill(0xee, 0, 10);
    const written: number[] = [];
    const recording = new Proxy(target, {
      get: (array, key) =>
        key === 'set'
          ? (page: Uint8Array, at: number) => {
              written.push(at);
              array.set(page, at);
            }
          : Reflect.get(array, key, array),
    });
    copyNonZeroPages(source, recording, 10);
    expect(written).toEqual([10 + 4096, 10 + 4096 * 3]);
    expect(Buffer.from(target.subarray(10)).equals(source)).toBe(true);
  });

  it("writes a file with zero pages into the in-memory file system with the tarball's bytes", () => {
    const wal = Buffer.alloc(3 * 1024 * 1024 + 5);
    wal.write('record', 1_500_000);
    wal[wal.length - 1] = 1;
    const { file } = write(tarball([{ name: '/pg_wal/segment', data: wal }]));
    const files = new Map<string, Uint8Array>();
    unpackSnapshotInto(
      file,
      {
        mkdirTree: () => undefined,
        writeFile: (path, data) => files.set(path, data),
        chmod: () => undefined,
        utime: () => undefined,
      },
      '/pglite/data',
    );
    expect(Buffer.from(files.get('/pglite/data/pg_wal/segment')!).equals(wal)).toBe(true);
  });

  it('leaves a range of a file as zeros, not read', () => {
    const wal = Buffer.alloc(5 * 8192, 0x11);
    const { file } = write(
      tarball([
        { name: '/base', type: '5', mode: 0o700 },
        { name: '/base/1', type: '5', mode: 0o700 },
        { name: '/base/1/PG_VERSION', data: Buffer.from('18\n') },
        { name: '/base/1/1259', data: Buffer.alloc(8192, 1) },
        { name: '/base/5/1259', data: Buffer.alloc(8192, 5) },
        { name: '/pg_wal/segment', data: wal },
      ]),
    );
    const files = new Map<string, Uint8Array>();
    const folders: string[] = [];
    unpackSnapshotInto(
      file,
      {
        mkdirTree: (path) => folders.push(path),
        writeFile: (path, data) => files.set(path, data),
        chmod: () => undefined,
        utime: () => undefined,
      },
      '/d',
      {
        zeros: (parts, size) =>
          parts.join('/') === 'pg_wal/segment' ? { start: 8192, end: size - 8192 } : undefined,
      },
    );
    expect([...files.keys()].sort()).toEqual([
      '/d/base/1/1259',
      '/d/base/1/PG_VERSION',
      '/d/base/5/1259',
      '/d/pg_wal/segment',
    ]);
    expect(folders).toContain('/d/base/1');
    const segment = Buffer.from(files.get('/d/pg_wal/segment')!);
    expect(segment.length).toBe(wal.length);
    expect(segment.subarray(0, 8192).equals(wal.subarray(0, 8192))).toBe(true);
    expect(segment.subarray(8192, 4 * 8192).every((byte) => byte === 0)).toBe(true);
    expect(segment.subarray(4 * 8192).equals(wal.subarray(4 * 8192))).toBe(true);
  });

  it('refuses a member that would land outside the folder, writing nothing there', () => {
    const { file, dir } = write(tarball([{ name: '../escaped', data: Buffer.from('x') }]));
    expect(() => unpackSnapshot(file, dir)).toThrow(/no path inside the data folder/);
    expect(existsSync(join(root, 'escaped'))).toBe(false);
  });

  it('refuses kinds of member a data folder does not hold (a symbolic link)', () => {
    const { file, dir } = write(tarball([{ name: '/link', type: '2' }]));
    expect(() => unpackSnapshot(file, dir)).toThrow(/kind a data folder does not hold/);
  });

  it('refuses a damaged header, a cut tarball and an empty or foreign file', () => {
    const good = tarball([{ name: '/PG_VERSION', data: Buffer.from('17\n') }]);
    const damaged = Buffer.from(good);
    damaged[3] = 'X'.charCodeAt(0);
    expect(() => unpackSnapshot(write(damaged).file, join(root, 'd1'))).toThrow(/bad checksum/);
    const cut = tarball([{ name: '/PG_VERSION', data: Buffer.alloc(4096) }], { end: false });
    expect(() => unpackSnapshot(write(cut.subarray(0, 1024)).file, join(root, 'd2'))).toThrow(
      /ends inside/,
    );
    expect(() => unpackSnapshot(write(Buffer.alloc(1024)).file, join(root, 'd3'))).toThrow(/empty/);
    expect(() =>
      unpackSnapshot(write(Buffer.from('not a tarball')).file, join(root, 'd4')),
    ).toThrow(/ends before/);
  });

  it("writes the same members into an in-memory file system, each file's bytes its own", () => {
    const wal = Buffer.alloc(2 * 1024 * 1024 + 7, 1);
    const { file } = write(
      tarball([
        { name: '/PG_VERSION', mode: 0o640, mtime: 1_600_000_000, data: Buffer.from('17\n') },
        { name: '/pg_wal', type: '5', mode: 0o700 },
        { name: '000000010000000000000001', prefix: '/pg_wal', data: wal },
      ]),
    );
    const calls: string[] = [];
    const files = new Map<string, Uint8Array>();
    unpackSnapshotInto(
      file,
      {
        mkdirTree: (path, mode) => calls.push(`mkdir ${path} ${mode?.toString(8) ?? ''}`),
        writeFile: (path, data, options) => {
          files.set(path, data);
          calls.push(`write ${path} ${data.length} ${options?.canOwn}`);
        },
        chmod: (path, mode) => calls.push(`chmod ${path} ${mode.toString(8)}`),
        utime: (path, _atime, mtime) => calls.push(`utime ${path} ${mtime}`),
      },
      '/pglite/data',
    );
    expect(calls).toEqual([
      'mkdir /pglite/data ',
      'write /pglite/data/PG_VERSION 3 true',
      'chmod /pglite/data/PG_VERSION 640',
      'utime /pglite/data/PG_VERSION 1600000000000',
      'mkdir /pglite/data/pg_wal 700',
      `write /pglite/data/pg_wal/000000010000000000000001 ${wal.length} true`,
      'chmod /pglite/data/pg_wal/000000010000000000000001 600',
      'utime /pglite/data/pg_wal/000000010000000000000001 1700000000000',
    ]);
    const segment = files.get('/pglite/data/pg_wal/000000010000000000000001')!;
    expect(Buffer.from(segment).equals(wal)).toBe(true);
    expect(segment.buffer.byteLength).toBe(wal.length);
    expect(Buffer.from(files.get('/pglite/data/PG_VERSION')!).toString()).toBe('17\n');
  });
});
