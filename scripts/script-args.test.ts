import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scriptArgs, type ScriptIo } from './script-args.js';

/** Runs scriptArgs with an io that records what it wrote and how it stopped. */
function run(argv: string[]) {
  const written = { stdout: '', stderr: '', code: undefined as number | undefined };
  const io: ScriptIo = {
    stdout: (text) => void (written.stdout += text),
    stderr: (text) => void (written.stderr += text),
    exit: (code) => {
      written.code = code;
      throw new Error('exit');
    },
  };
  let values: unknown;
  try {
    values = scriptArgs(
      { options: { seed: { type: 'string', default: '1' }, each: { type: 'boolean' } } },
      'npx tsx scripts/x.ts [--seed 1] [--each]',
      argv,
      io,
    ).values;
  } catch (error) {
    if ((error as Error).message !== 'exit') throw error;
  }
  return { ...written, values };
}

describe('scriptArgs', () => {
  it('reads the flags a script takes', () => {
    expect(run(['--seed', '7', '--each']).values).toEqual({ seed: '7', each: true });
    expect(run([]).values).toEqual({ seed: '1' });
  });

  it('prints the usage for --help and -h and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const help = run([flag]);
      expect(help).toMatchObject({
        code: 0,
        stdout: 'usage: npx tsx scripts/x.ts [--seed 1] [--each]\n',
      });
      expect(help.stderr).toBe('');
    }
  });

  it('refuses an unknown flag, a missing value or a stray argument with the usage, exit 2', () => {
    // Node's parseArgs threw TypeError [ERR_PARSE_ARGS_UNKNOWN_OPTION] with its stack.
    for (const argv of [['--verbose'], ['--seed'], ['stray']]) {
      const refused = run(argv);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/\nusage: npx tsx scripts\/x\.ts /);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
    expect(run(['--verbose']).stderr).toMatch(/^Unknown option '--verbose'/);
  });

  it('is what scripts/fuzz-http.ts reads its flags with', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const script = fileURLToPath(new URL('fuzz-http.ts', import.meta.url));
    const node = (flag: string) =>
      promisify(execFile)(process.execPath, ['--import', tsx, script, flag], {
        timeout: 60_000,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const [help, unknown] = await Promise.all([node('--help'), node('--bogus')]);
    expect(help).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^usage: npx tsx scripts\/fuzz-http\.ts /),
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option '--bogus'.*\nusage: /s);
    expect(unknown.stderr).not.toContain('ERR_PARSE_ARGS');
    // Two tsx starts: seconds each on a loaded 2-core machine.
  }, 120_000);
});
