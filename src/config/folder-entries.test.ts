import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFolderEntries, showName } from './folder-entries.js';

describe('readFolderEntries', () => {
  it('decodes each name strictly, showing the bytes of one that is not UTF-8', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-names-'));
    try {
      writeFileSync(join(dir, 'café.md'), 'x');
      writeFileSync(join(dir, '\ufffd.md'), 'x'); // a real U+FFFD is UTF-8 like any character
      writeFileSync(Buffer.from([...Buffer.from(join(dir, 'caf')), 0xe9, 0x2e, 0x6d, 0x64]), 'x');
      mkdirSync(Buffer.from([...Buffer.from(join(dir, 'sk')), 0xff, 0xfe]));
      const entries = readFolderEntries(dir).map(({ name, utf8, kind }) => ({
        name,
        utf8,
        folder: kind.isDirectory(),
      }));
      expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
        [
          { name: 'caf\\xE9.md', utf8: false, folder: false },
          { name: 'café.md', utf8: true, folder: false },
          { name: 'sk\\xFF\\xFE', utf8: false, folder: true },
          { name: '\ufffd.md', utf8: true, folder: false },
        ].sort((a, b) => a.name.localeCompare(b.name)),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows a cut multi-byte character and stray bytes anywhere in a name', () => {
    expect(showName(Buffer.from('plain.md'))).toBe('plain.md');
    expect(showName(Buffer.from([0xe2, 0x82]))).toBe('\\xE2\\x82'); // '€' cut short
    expect(showName(Buffer.from([0x80, ...Buffer.from('é'), 0x41]))).toBe('\\x80éA');
  });
});
