import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findPython } from './code-runner.js';
import { findBwrap } from './find-bwrap.js';
import { limitsPrelude } from './sandbox.js';

// cohort's other sandbox tests run as whoever runs the suite, root here: a pids cgroup then
// limits processes, and root opens any folder. A user without either is most users.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const scratch = mkdtempSync(join(tmpdir(), 'cohort-unprivileged-'));
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `script` (an ES module) as the user nobody, with cohort's sources importable. */
function asNobody(script: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(
    SETPRIV as string,
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      process.execPath,
      '--import',
      TSX,
      '--input-type=module',
      '-e',
      script,
    ],
    {
      encoding: 'utf8',
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, HOME: scratch },
      timeout: 60_000,
    },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the process limit inside the sandbox', () => {
  // Debian's and Ubuntu's /bin/sh is dash, whose RLIMIT_NPROC option is -p: it refused -u as an
  // illegal option, so every command of a user with no cgroup of their own exited 125.
  it.each(['/bin/sh', '/bin/dash', '/bin/bash'].filter((shell) => existsSync(shell)))(
    'sets RLIMIT_NPROC under %s',
    (shell) => {
      const run = spawnSync(
        shell,
        ['-c', limitsPrelude(undefined, 4000, undefined), 'sandbox', 'cat', '/proc/self/limits'],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^Max processes +4000 /m);
    },
  );
});

describe.skipIf(!asRoot || !SETPRIV || !findBwrap(undefined) || !findPython(undefined))(
  'the sandbox run by a user who is not root',
  () => {
    it('runs a command, with its process limit', () => {
      const workspace = join(scratch, 'workspace');
      spawnSync('install', ['-d', '-o', String(NOBODY), workspace]);
      const run = asNobody(
        [
          `import { createSandbox } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'sandbox.ts')).href)};`,
          `import { SandboxSettings } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, '..', 'config', 'sandbox-settings.ts')).href)};`,
          `const sandbox = createSandbox({ root: ${JSON.stringify(workspace)}, settings: SandboxSettings.parse({}) });`,
          "const run = await sandbox.run({ argv: ['/bin/bash', '-c', 'id -u; echo made > made'], timeoutMs: 20_000, keepChars: 4000 });",
          'console.log(JSON.stringify({ kind: sandbox.processLimit, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr }));',
        ].join('\n'),
      );
      expect(run.stderr).toBe('');
      const result: unknown = JSON.parse(run.stdout);
      expect(result).toMatchObject({ exitCode: 0, stdout: `${NOBODY}\n`, stderr: '' });
      expect(readdirSync(workspace)).toContain('made');
    });

    it('runs code that leaves a folder it cannot write, and removes its scratch folder', () => {
      spawnSync('install', ['-d', '-o', String(NOBODY), join(scratch, 'tmp')]);
      const run = asNobody(
        [
          `import { runCode } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'code-runner.ts')).href)};`,
          `import { SandboxSettings } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, '..', 'config', 'sandbox-settings.ts')).href)};`,
          "import { mkdtempSync } from 'node:fs';",
          // The scratch folder is made in the temporary folder: this test's own, to look into.
          `process.env.TMPDIR = ${JSON.stringify(join(scratch, 'tmp'))};`,
          "const code = \"import os\\nos.makedirs('a/b')\\nopen('a/b/f', 'w').write('x')\\nos.chmod('a', 0o500)\\nprint('ok')\";",
          'const result = await runCode(code, { settings: SandboxSettings.parse({}), timeoutMs: 20_000 });',
          'console.log(JSON.stringify(result));',
        ].join('\n'),
      );
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'ok', stdout: 'ok\n' });
      expect(readdirSync(join(scratch, 'tmp'))).toEqual([]);
    });
  },
);
