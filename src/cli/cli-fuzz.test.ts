import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

// Every command with hostile flags and arguments: unknown flags, flags without their value,
// values of the wrong kind, empty/huge/NUL/Unicode strings, and paths that do not exist, are
// files where a folder is wanted (or the reverse), or cannot be read. Each must end with exit
// code 1 or 2 (0 where the input is acceptable) and one line saying what was wrong: never an
// "unexpected error" (a throw nobody turned into a CohortError) or a stack trace.

let root: string;
let paths: Record<'missing' | 'file' | 'folder' | 'unreadable' | 'emptyFolder', string>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cohort-cli-fuzz-'));
  const file = join(root, 'file.md');
  writeFileSync(file, '# A file\n\nNot a folder.\n');
  const unreadable = join(root, 'unreadable');
  mkdirSync(unreadable);
  writeFileSync(join(unreadable, 'page.md'), '# Page\n');
  chmodSync(unreadable, 0o000);
  const emptyFolder = join(root, 'empty');
  mkdirSync(emptyFolder);
  paths = { missing: join(root, 'no', 'such'), file, folder: root, unreadable, emptyFolder };
});

const HOSTILE = [
  '',
  ' ',
  '-1',
  'abc',
  '1.5',
  '1e9',
  'NaN',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '🤖日本語',
  'x'.repeat(5000),
  '../../../../etc/passwd',
  '$(id)',
  '--',
  '-',
];

/** Flags of each command that take a value (from each command's parseArgs options). */
const VALUE_FLAGS: Record<string, string[]> = {
  ask: ['session', 'agent', 'multi-domain', 'data-dir', 'config'],
  chat: ['session', 'data-dir', 'config'],
  route: ['data-dir', 'config'],
  agents: ['data-dir', 'config'],
  ingest: ['data-dir', 'config'],
  eval: ['corpus', 'split', 'workspace', 'data-dir', 'config'],
  research: ['tasks', 'resume', 'data-dir', 'config'],
  skills: ['workspace'],
  code: ['workspace', 'skill', 'session', 'allow', 'ask', 'deny', 'permission-mode'],
  mcp: ['data-dir', 'config'],
  serve: ['port', 'host', 'log-level', 'data-dir', 'config'],
};

/** Arguments that make each command do its work quickly once its flags are read. */
const FIXED: Record<string, string[]> = {
  ask: ['What is a topic?'],
  chat: [],
  route: ['What is a topic?'],
  agents: [],
  ingest: [],
  eval: ['routing'],
  research: ['What is a topic?'],
  skills: [],
  code: ['list the files'],
  mcp: ['list'],
  serve: [],
};

function cases(): string[][] {
  const all: string[][] = [];
  for (const [command, flags] of Object.entries(VALUE_FLAGS)) {
    const fixed = FIXED[command] ?? [];
    all.push([command, '--no-such-flag', ...fixed]);
    all.push([command, '-z', ...fixed]);
    all.push([command, ...fixed, `--${flags[0]}`]); // a flag without its value
    for (const flag of flags) {
      // A data folder that does not exist yet is created (and the book ingested): not an error.
      for (const value of flag === 'data-dir' ? [paths.file] : [paths.missing, paths.file]) {
        all.push([command, `--${flag}`, value, ...fixed]);
      }
    }
  }
  for (const value of HOSTILE) {
    all.push(['serve', '--port', value]);
    all.push(['serve', '--log-level', value]);
    all.push(['research', '--tasks', value, 'What is a topic?']);
    all.push(['code', '--permission-mode', value, 'list the files']);
    all.push(['ask', '--multi-domain', value, 'What is a topic?']);
    all.push(['ask', '--session', value, 'What is a topic?']);
    all.push(['eval', 'routing', '--split', value]);
    all.push(['route', value]);
    all.push(['ingest', value]);
    all.push(['eval', value]);
    all.push(['mcp', value]);
  }
  for (const folder of [paths.missing, paths.file, paths.unreadable, paths.emptyFolder])
    all.push(['ingest', folder]);
  all.push(['no-such-command'], ['ask'], ['route'], ['ingest'], ['research'], ['eval']);
  return all;
}

/**
 * Whether a run would block (serve listening, mcp on stdio, chat reading, a research run or an
 * eval over the whole corpus): those are given only values that must be refused.
 */
function blocks(args: string[]): boolean {
  const [command] = args;
  if (command === 'serve') {
    // Only a run refused before it listens returns: a bad --port or --log-level, a bad flag.
    const port = args.includes('--port') ? args[args.indexOf('--port') + 1] : '8787';
    const level = args.includes('--log-level') ? args[args.indexOf('--log-level') + 1] : 'info';
    const refused =
      !/^\d+$/.test(port ?? '') ||
      Number(port) > 65535 ||
      !/^(debug|info|warn|error|silent)$/.test(level ?? '') ||
      args.some((arg) => ['--no-such-flag', '-z'].includes(arg)) ||
      args.at(-1) === '--port' ||
      args.includes(paths.file);
    return !refused;
  }
  // `cohort mcp` (or `mcp serve`, `mcp --`) serves on stdio until its input ends.
  if (command === 'mcp') return args[1] === undefined || args[1] === 'serve' || args[1] === '--';
  return false;
}

describe('the CLI under hostile flags and arguments', () => {
  it('refuses every one with one line naming what was wrong, never an unexpected error', async () => {
    const env = { COHORT_DATA_DIR: join(root, 'data') };
    // The first run ingests the sample book; the cases after it reuse the store.
    expect((await runCli(['route', 'What is a topic?'], env)).code).toBe(0);
    const problems: string[] = [];
    let ran = 0;
    // The whole set takes minutes (most cases open the store); npm test runs every fifth case
    // and every refusal of `serve`, COHORT_FUZZ_FULL=1 runs them all.
    const full = process.env.COHORT_FUZZ_FULL === '1';
    const chosen = cases().filter(
      (args, index) => !blocks(args) && (full || index % 5 === 0 || args[0] === 'serve'),
    );
    for (const args of chosen) {
      ran += 1;
      const started = Date.now();
      if (process.env.FUZZ_DUMP)
        process.stderr.write(`RUN ${JSON.stringify(args).slice(0, 100)}\n`);
      const { code, stderr } = await runCli(args, env, []);
      if (process.env.FUZZ_DUMP) process.stderr.write(`TOOK ${Date.now() - started}\n`);
      const shown = JSON.stringify(args).slice(0, 120);
      if (process.env.FUZZ_DUMP && /unexpected error|\n\s+at /.test(stderr))
        process.stderr.write(
          `PROBLEM ${JSON.stringify(args).slice(0, 100)} ${stderr.slice(0, 300)}\n`,
        );
      if (/unexpected error/.test(stderr)) problems.push(`${shown}: ${stderr.slice(0, 200)}`);
      else if (/\n\s+at .+:\d+:\d+/.test(stderr)) problems.push(`${shown}: stack trace`);
      else if (code !== 0 && !/\S/.test(stderr))
        problems.push(`${shown}: exit ${code}, no message`);
      else if (![0, 1, 2].includes(code)) problems.push(`${shown}: exit ${code}`);
    }
    expect(ran).toBeGreaterThan(full ? 250 : 60);
    if (process.env.FUZZ_DUMP) console.log(ran, problems.join('\n'));
    expect(problems).toEqual([]);
  }, 280_000);
});
