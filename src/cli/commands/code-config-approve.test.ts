import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import type { CliIo } from '../command.js';
import { main } from '../main.js';

// A folder's cohort.config.json and .claude/settings.json may widen what runs without asking;
// `cohort code` leaves those settings out until approved. On a terminal it asks, y/N, and a yes is
// recorded as `cohort config approve` records it.

function folder() {
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-code-approve-'));
  writeFileSync(
    join(cwd, 'cohort.config.json'),
    JSON.stringify({ permissions: { allow: ['Bash(echo approved)'] } }),
  );
  mkdirSync(join(cwd, '.claude'));
  writeFileSync(
    join(cwd, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }),
  );
  const home = mkdtempSync(join(tmpdir(), 'cohort-code-approve-home-'));
  return { cwd, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } };
}

describe('cohort code and a folder whose settings are not approved', () => {
  let model: FakeOpenAI | undefined;
  afterEach(() => {
    model?.close();
    model = undefined;
  });

  const run = async (
    place: ReturnType<typeof folder>,
    terminal: { stdout: boolean; stdin: boolean },
    answers: string[],
  ) => {
    model ??= await startFakeOpenAI({ chat: [{ kind: 'text', text: 'Done.' }] });
    let stdout = '';
    let stderr = '';
    const read: string[] = [];
    const io: CliIo = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      env: {
        ...place.env,
        COHORT_DATA_DIR: 'memory://',
        OPENAI_BASE_URL: model.baseUrl,
        COHORT_MODEL: 'scripted',
      },
      cwd: place.cwd,
      isTTY: terminal.stdout,
      stdinIsTTY: terminal.stdin,
      stdin: (async function* () {
        for (const answer of answers) {
          read.push(answer);
          yield answer;
        }
      })(),
    };
    const code = await main(['code', 'Say done.'], io);
    return { code, stdout, stderr, read };
  };
  const ignored = (file: string) => `cohort ignored these settings of ${file}`;

  it('asks y/N on a terminal, records a yes, and leaves out what was declined', async () => {
    const place = folder();
    const config = join(place.cwd, 'cohort.config.json');
    const claude = join(place.cwd, '.claude', 'settings.json');
    const first = await run(place, { stdout: true, stdin: true }, ['y', '']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`? ${config} sets what is not approved for this folder`);
    expect(first.stdout).toContain('  permissions.allow = ["Bash(echo approved)"]');
    expect(first.stdout).toContain(`? ${claude} sets what is not approved for this folder`);
    expect(first.stdout).toContain('Apply them (and remember for this folder)? [y/N] ');
    // The empty answer is the default: No.
    expect(first.stderr).not.toContain(ignored(config));
    expect(first.stderr).toContain(ignored(claude));
    // Remembered, as `cohort config approve` would: a run without a terminal applies it unasked.
    const later = await run(place, { stdout: false, stdin: false }, []);
    expect(later.stdout).not.toContain('? ');
    expect(later.stderr).not.toContain(ignored(config));
    expect(later.stderr).toContain(ignored(claude));
  }, 60_000);

  it('asks nothing when stdin is not a terminal: its lines are input, not answers', async () => {
    const place = folder();
    const piped = await run(place, { stdout: true, stdin: false }, ['y', 'y']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain('[y/N]');
    expect(piped.read).toEqual([]);
    expect(piped.stderr).toContain(ignored(join(place.cwd, 'cohort.config.json')));
    expect(piped.stderr).toContain(ignored(join(place.cwd, '.claude', 'settings.json')));
  }, 60_000);
});
