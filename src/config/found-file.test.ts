import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUpTo } from './found-file.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-read-up-to-'));
const readFile = (name: string, text: string, max: number) => {
  writeFileSync(join(dir, name), text);
  const handle = openSync(join(dir, name), 'r');
  try {
    return readUpTo(handle, max);
  } finally {
    closeSync(handle);
  }
};

describe('readUpTo', () => {
  it('reads a file up to the bound whole, past its first buffer too', () => {
    expect(readFile('small.txt', 'héllo', 100)).toBe('héllo');
    const big = 'x'.repeat(300_000) + 'é';
    expect(readFile('big.txt', big, 300_002)).toBe(big);
    expect(readFile('empty.txt', '', 10)).toBe('');
  });

  it('gives undefined for more than the bound, and for a device that never ends', () => {
    expect(readFile('over.txt', 'x'.repeat(101), 100)).toBeUndefined();
    const zero = openSync('/dev/zero', 'r');
    try {
      expect(readUpTo(zero, 1024 * 1024)).toBeUndefined();
    } finally {
      closeSync(zero);
    }
  });
});
