import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packSnapshot } from './snapshot-pack.js';
import { readSnapshot, unpackSnapshot } from './snapshot-unpack.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-snapshot-pack-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('packSnapshot', () => {
  it('writes a folder as a tarball that unpacks to the same files, modes and times', () => {
    const folder = join(root, 'folder');
    mkdirSync(join(folder, 'base', '5'), { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, 'PG_VERSION'), '18\n', { mode: 0o600 });
    // Larger than the copy buffer and not a whole number of tar blocks.
    const relation = Buffer.alloc(1024 * 1024 + 700, 7);
    writeFileSync(join(folder, 'base', '5', '1259'), relation, { mode: 0o600 });
    writeFileSync(join(folder, 'base', '5', 'empty'), '', { mode: 0o640 });
    // cohort's own files at the top are not the engine's: left out.
    writeFileSync(join(folder, 'cohort.lock'), '{"pid":1}');
    utimesSync(join(folder, 'PG_VERSION'), 1_700_000_000, 1_700_000_000);

    const tarball = join(root, 'folder.tar');
    packSnapshot(folder, tarball);
    const members: string[] = [];
    readSnapshot(tarball, (member) => members.push(`${member.kind} ${member.parts.join('/')}`));
    expect(members).toEqual([
      'file PG_VERSION',
      'folder base',
      'folder base/5',
      'file base/5/1259',
      'file base/5/empty',
    ]);

    const unpacked = join(root, 'unpacked');
    unpackSnapshot(tarball, unpacked);
    expect(readFileSync(join(unpacked, 'PG_VERSION'), 'utf8')).toBe('18\n');
    expect(readFileSync(join(unpacked, 'base', '5', '1259')).equals(relation)).toBe(true);
    expect(readFileSync(join(unpacked, 'base', '5', 'empty')).length).toBe(0);
    expect(statSync(join(unpacked, 'base', '5', '1259')).mode & 0o777).toBe(0o600);
    expect(statSync(join(unpacked, 'base', '5', 'empty')).mode & 0o777).toBe(0o640);
    expect(statSync(join(unpacked, 'PG_VERSION')).mtimeMs).toBe(1_700_000_000_000);
  });
});
