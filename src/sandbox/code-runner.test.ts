import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxSettings } from '../config/index.js';
import { codeRunView, findPython, runCode } from './code-runner.js';
import { findBwrap } from './find-bwrap.js';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';

const settings = SandboxSettings.parse({ codeMemoryMb: 256 });
const parentEnv = { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-parent-secret' };
const run = (code: string, timeoutMs = 5000) => runCode(code, { settings, timeoutMs, parentEnv });
const outside = mkdtempSync(join(tmpdir(), 'cohort-code-outside-'));
let server: FixtureServer;
let port = 0;
beforeAll(async () => {
  server = await startFixtureServer(() => ({ body: 'loopback answer' }));
  port = Number(new URL(server.url).port);
});
afterAll(() => {
  server.close();
  rmSync(outside, { recursive: true, force: true });
});

describe.skipIf(!findBwrap(undefined) || !findPython(undefined))(
  'runCode (python3 in the sandbox)',
  () => {
    it('returns what the code printed and its last value', async () => {
      const result = await run('import statistics\nprint(statistics.mean([1, 2, 3, 4]))\n6 * 7');
      expect(result).toMatchObject({ status: 'ok', stdout: '2.5\n', result: '42' });
    });

    it('os.system runs inside the sandbox: no host write, no secret, no host processes', async () => {
      const result = await run(
        [
          'import os',
          `print(os.system('id > ${outside}/proof 2>/dev/null'))`,
          "print(os.environ.get('OPENAI_API_KEY'))",
          "print(open('/proc/1/environ').read().count('sk-parent'))",
          "print(len([p for p in os.listdir('/proc') if p.isdigit()]) < 10)",
        ].join('\n'),
      );
      expect(result.status).toBe('ok');
      expect(result.stdout.split('\n').slice(1)).toEqual(['None', '0', 'True', '']);
      expect(readdirSync(outside)).toEqual([]);
    });

    it('sees the system, not the host: no project, no home, no /etc/shadow', async () => {
      const hidden = [process.cwd(), join(process.cwd(), 'package.json'), homedir(), '/etc/shadow'];
      const result = await run(
        [
          'import os, json, sqlite3, statistics',
          `print([os.path.exists(p) for p in ${JSON.stringify(hidden)}])`,
          "print(os.path.exists('/usr/bin/python3'), os.path.exists('/etc/passwd'))",
        ].join('\n'),
      );
      expect(result.stdout).toBe('[False, False, False, False]\nTrue True\n');
    });

    it('says so when a process of the code was killed at sandbox.maxMemoryMb', async (context) => {
      // The children died (SIGKILL from the memory cgroup) and the code reported 'ok' with no word.
      const capped = SandboxSettings.parse({ codeMemoryMb: 256, maxMemoryMb: 160 });
      const code = [
        'import os',
        'pid = os.fork()',
        'if pid == 0:',
        "    data = b'x' * (200 * 1024 * 1024)",
        '    os._exit(0)',
        'print(os.waitpid(pid, 0)[1])',
      ].join('\n');
      const result = await runCode(code, { settings: capped, timeoutMs: 10_000, parentEnv });
      if (result.stdout.trim() === '0') context.skip(); // no memory cgroup on this machine
      expect(result.status).toBe('ok');
      expect(result.stderr).toContain(
        '[killed: the code used more than sandbox.maxMemoryMb (160 MB) of memory]',
      );
    });

    it('stops code that writes more than sandbox.maxDiskMb to its scratch folder, and says why', async () => {
      // Each file stays under the 64 MB file limit; together they went to the host's disk.
      const capped = SandboxSettings.parse({ codeMemoryMb: 256, maxDiskMb: 64 });
      const code = [
        'for i in range(8):',
        "    with open(f'fill{i}', 'wb') as f: f.write(b'x' * 32_000_000)",
        "print('all written')",
      ].join('\n');
      const result = await runCode(code, { settings: capped, timeoutMs: 30_000, parentEnv });
      expect(result.stdout).not.toContain('all written');
      expect(result.status).toBe('error');
      expect(result.error).toBe(
        '[killed: the code wrote more than sandbox.maxDiskMb (64 MB) to the disk]',
      );
    });

    it('has a scratch folder as its only writable place, and no network', async () => {
      const result = await run(
        [
          "open('notes.txt', 'w').write('ok')",
          'import urllib.request',
          'try:',
          `    urllib.request.urlopen('http://127.0.0.1:${port}/', timeout=2).read()`,
          "    print('reached')",
          'except Exception as error:',
          "    print('no network')",
          `open('${outside}/x', 'w')`,
        ].join('\n'),
      );
      expect(result.stdout).toBe('no network\n');
      expect(result.status).toBe('error');
      expect(result.error).toMatch(/Read-only file system|Permission denied|No such file/);
      expect(readdirSync(outside)).toEqual([]);
    });

    it('stops a memory bomb at the memory limit (MemoryError, not host RSS)', async () => {
      const result = await run('x = []\nwhile True:\n    x.append(bytearray(10**7))');
      expect(result.status).toBe('error');
      expect(result.error).toMatch(/MemoryError|killed/);
    });

    it('returns a blocking call at its 3 s limit, killing the process', async () => {
      const started = Date.now();
      const result = await run('import time\ntime.sleep(60)', 3000);
      const took = Date.now() - started;
      expect(result.status).toBe('timeout');
      expect(took).toBeGreaterThanOrEqual(2900);
      expect(took).toBeLessThan(4500);
    });

    it('returns a Python error as a value, with only the code frames', async () => {
      const result = await run('1 / 0');
      expect(result.status).toBe('error');
      expect(result.error).toMatch(/^Traceback[\s\S]*<exec>[\s\S]*ZeroDivisionError/);
      expect(result.error).not.toContain('ast.py');
    });
  },
);

describe('runCode without python3', () => {
  const empty = mkdtempSync(join(tmpdir(), 'cohort-no-python-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('is refused with how to install python3, running nothing', async () => {
    const result = await runCode('print(1)', {
      settings,
      parentEnv: { PATH: empty },
      pythonDirs: [],
    });
    expect(result).toMatchObject({ status: 'error', stdout: '', stderr: '' });
    expect(result.error).toBe(
      'Code execution is unavailable: no python3 was found (looked in /usr/bin and on PATH). Install it (Debian/Ubuntu: sudo apt-get install python3) or set sandbox.python to an interpreter.',
    );
  });

  it('names a configured interpreter that does not exist, rather than using another one', async () => {
    const missing = join(empty, 'python3.99');
    const result = await runCode('print(1)', {
      settings: SandboxSettings.parse({ python: missing }),
      parentEnv,
    });
    expect(result.status).toBe('error');
    expect(result.error).toContain(`sandbox.python is ${missing}, which is not an executable file`);
  });
});

describe('codeRunView', () => {
  it('shows the system folders, /etc files an interpreter reads, and a virtualenv outside them', () => {
    const venv = mkdtempSync(join(tmpdir(), 'cohort-venv-'));
    try {
      mkdirSync(join(venv, 'bin'));
      const python = findPython(undefined) ?? '/bin/sh';
      symlinkSync(python, join(venv, 'bin', 'python3'));
      const view = codeRunView(join(venv, 'bin', 'python3'));
      expect(view).toEqual(expect.arrayContaining(['/usr', '/bin', venv]));
      expect(view.filter((path) => path.startsWith('/etc/'))).not.toContain('/etc/shadow');
      expect(view).not.toContain('/etc');
      expect(view).not.toContain(homedir());
    } finally {
      rmSync(venv, { recursive: true, force: true });
    }
  });
});
