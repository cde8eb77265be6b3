import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testCli } from '../test/test-cli.js';
import { terminalText } from './terminal-text.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-terminal-text-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('terminalText', () => {
  it('shows control characters instead of sending them, keeping lines and tabs', () => {
    expect(terminalText('a\tb\nc\r\nd')).toBe('a\tb\nc\nd');
    expect(terminalText('\x1b]0;pwned\x07 \x1b[2J\rx\x00\x7f\x9b')).toBe(
      '␛]0;pwned␇ ␛[2J␍x␀␡<U+009B>',
    );
    expect(terminalText('日本語 🤖 \u202e')).toBe('日本語 🤖 \u202e');
  });
});

describe('cohort on a terminal', () => {
  it("never passes a document's escape sequences to the terminal", () => {
    // A heading or passage with ESC sequences (from a book, the web or a model) set the window
    // title, cleared the screen and drew disguised links when `cohort ask` printed it.
    const docs = join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'z.md'),
      '# Zorblax \x1b]0;pwned\x07 heading \x1b[2J\n\nZorblax is a \x1b[31mred\x1b[0m widget for testing zorblax things.\n',
    );
    const env = { ...process.env, COHORT_DATA_DIR: join(root, 'data') };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [testCli(), ...args], { env, encoding: 'utf8' });
    expect(run(['ingest', docs]).status).toBe(0);
    const { status, stdout } = run(['ask', 'What is zorblax?']);
    expect(status).toBe(0);
    expect(stdout).toContain('Zorblax is a ␛[31mred␛[0m widget');
    expect(stdout).toContain('Zorblax ␛]0;pwned␇ heading ␛[2J');
    // eslint-disable-next-line no-control-regex
    expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  }, 120_000);
});
