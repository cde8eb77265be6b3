import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineWindow } from './read-lines.js';
import { createReadTool } from './read-tool.js';
import { createWorkspace } from './workspace.js';

const dir = mkdtempSync(join(tmpdir(), 'cohort-read-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The window the read tool gave before it streamed: the whole file split, then sliced. */
function splitWindow(text: string, offset: number, limit: number) {
  const all = text.split(/\r?\n/);
  return { lines: all.slice(offset - 1, offset - 1 + limit), totalLines: all.length };
}

async function windowOf(
  content: string | Buffer,
  options: { offset: number; limit: number; maxChars?: number; maxBytes?: number },
) {
  const path = join(dir, 'file.txt');
  writeFileSync(path, content);
  const handle = await open(path, 'r');
  let bytesRead = 0;
  const counting = new Proxy(handle, {
    get(target, key) {
      if (key !== 'read') return Reflect.get(target, key, target) as unknown;
      return async (...args: Parameters<typeof handle.read>) => {
        const result = await (target.read as (...a: unknown[]) => ReturnType<typeof handle.read>)(
          ...args,
        );
        bytesRead += result.bytesRead;
        return result;
      };
    },
  });
  try {
    const window = await readLineWindow(counting, { maxChars: 1_000_000, ...options });
    return { ...window, bytesRead };
  } finally {
    await handle.close();
  }
}

describe('readLineWindow', () => {
  const boundary = 64 * 1024;
  const samples: Record<string, string> = {
    empty: '',
    'one line, no line end': 'alpha',
    'one line end': 'alpha\n',
    'CRLF lines': 'a\r\nb\r\nc\r\n',
    'a CR alone and a final CR': 'a\rb\nc\r',
    'empty lines': '\n\n\nx\n\n',
    'UTF-8 across the chunk boundary': `${'a'.repeat(boundary - 1)}é€😀\n${'b'.repeat(boundary)}\nend`,
    'CRLF split by the chunk boundary': `${'a'.repeat(boundary - 1)}\r\nnext\r\n`,
    'lines longer than a chunk': `${'x'.repeat(3 * boundary)}\n${'y'.repeat(boundary + 7)}\nz`,
    'many short lines': Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n'),
  };
  const windows = [
    [1, 2000],
    [1, 1],
    [2, 1],
    [3, 2],
    [29_990, 50],
    [40_000, 5],
  ] as const;
  it('gives the lines split() gave, for every sample, offset and limit', async () => {
    for (const [name, text] of Object.entries(samples)) {
      for (const [offset, limit] of windows) {
        const window = await windowOf(text, { offset, limit });
        const expected = splitWindow(text, offset, limit);
        expect(window.lines, `${name} ${offset}+${limit}`).toEqual(expected.lines);
        expect(window.cut, name).toBeUndefined();
        // The count is given whenever the read reached the end of the file, and is split()'s.
        if (window.totalLines !== undefined) expect(window.totalLines).toBe(expected.totalLines);
        else expect(offset - 1 + limit).toBeLessThan(expected.totalLines);
      }
    }
  });

  it('stops reading once the window is read, however large the file', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `${i} ${'x'.repeat(60)}`).join('\n');
    const head = await windowOf(text, { offset: 1, limit: 5 });
    expect(head.lines).toHaveLength(5);
    expect(head.totalLines).toBeUndefined();
    expect(head.bytesRead).toBeLessThanOrEqual(64 * 1024);
    const deep = await windowOf(text, { offset: 100_000, limit: 3 });
    expect(deep.lines[0]).toMatch(/^99999 x/);
    expect(deep.bytesRead).toBeLessThan(text.length / 2 + 64 * 1024);
  });

  it('keeps at most maxChars of a line with no end, and says it was cut', async () => {
    const window = await windowOf('y'.repeat(5_000_000), { offset: 1, limit: 5, maxChars: 1000 });
    expect(window.cut).toBe('chars');
    expect(window.lines).toHaveLength(1);
    expect(window.lines[0]!.length).toBeLessThanOrEqual(1000);
    expect(window.bytesRead).toBeLessThanOrEqual(64 * 1024);
  });

  it('reads at most maxBytes, and says the window was not reached', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n');
    const window = await windowOf(text, { offset: 40_000, limit: 5, maxBytes: 100_000 });
    expect(window).toMatchObject({ lines: [], totalLines: undefined, cut: 'bytes' });
    expect(window.bytesRead).toBeLessThanOrEqual(100_000);
  });
});

describe('the read tool on a file larger than a string can hold', () => {
  it('returns the lines asked for without loading the file (a 600 MB file failed whole)', async () => {
    const path = join(dir, 'big.log');
    // Text first (more than the 8,000 bytes looked at for a NUL), then a sparse hole: 600 MB that take no disk; reading it whole into one string
    // fails ("Cannot create a string longer than 0x1fffffe8 characters").
    writeFileSync(path, Array.from({ length: 2000 }, (_, i) => `entry ${i + 1}: ok`).join('\n'));
    truncateSync(path, 600 * 1024 * 1024);
    const read = createReadTool(createWorkspace(dir));
    const result = await read.execute({ path: 'big.log', offset: 3, limit: 5 }, {});
    expect(result).toMatchObject({ ok: true, truncated: true });
    expect(result.ok && result.content.split('\n')).toEqual([
      '     3\tentry 3: ok',
      '     4\tentry 4: ok',
      '     5\tentry 5: ok',
      '     6\tentry 6: ok',
      '     7\tentry 7: ok',
    ]);
    expect(result).not.toHaveProperty('totalLines');
    rmSync(path);
  });

  it('says where to read on when the lines asked for are longer than one read returns', async () => {
    writeFileSync(join(dir, 'wide.txt'), `short\n${'w'.repeat(50_000)}\nafter\n`);
    const read = createReadTool(createWorkspace(dir), { maxOutputChars: 1000 });
    const result = await read.execute({ path: 'wide.txt' }, {});
    expect(result).toMatchObject({ ok: true, truncated: true });
    const content = result.ok ? result.content : '';
    expect(content).toMatch(/^ {5}1\tshort\n {5}2\tw+\n… \[cut at 1000 characters/);
    expect(content).toContain('line 2 is not whole; read on with offset 2');
    expect(content.length).toBeLessThan(1200);
  });
});
