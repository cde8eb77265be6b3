import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './command.js';
import { main } from './main.js';
import { runCli } from '../test/run-cli.js';

describe('the terminal', () => {
  it('refuses an unknown --agent before opening (and so creating) any store', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'cohort-cli-')), 'store');
    const { code, stderr } = await runCli([
      'ask',
      'What is a topic?',
      '--agent',
      'chef',
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown agent "chef"/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a missing ingest folder before creating a store', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'cohort-cli-')), 'store');
    const { code, stderr } = await runCli([
      'ingest',
      join(tmpdir(), 'no-such-folder-13'),
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a readable folder/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('sends the AI SDK warnings to stderr, so stdout carries only the command output', async () => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      env: {},
      cwd: process.cwd(),
      isTTY: false,
    };
    await main(['--version'], io);
    stdout = '';
    const log = globalThis.AI_SDK_LOG_WARNINGS;
    expect(typeof log).toBe('function');
    if (typeof log === 'function') {
      log({
        warnings: [{ type: 'other', message: 'temperature is not supported' }],
        provider: 'p',
        model: 'm',
      });
    }
    expect(stdout).toBe('');
    expect(stderr).toContain('temperature is not supported');
  });

  it('prints each distinct model warning once, however often the SDK repeats it', async () => {
    let stderr = '';
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      env: {},
      cwd: process.cwd(),
      isTTY: false,
    };
    await main(['--version'], io);
    const log = globalThis.AI_SDK_LOG_WARNINGS;
    if (typeof log !== 'function') throw new Error('no warning logger installed');
    const schema = { type: 'unsupported', feature: 'responseFormat' } as const;
    for (let i = 0; i < 5; i++) log({ warnings: [schema], provider: 'p', model: 'm' });
    log({ warnings: [schema], provider: 'p', model: 'other' });
    expect(stderr.match(/Model warning/g)).toHaveLength(2);
  });
});
