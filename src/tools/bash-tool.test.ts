import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxSettings } from '../config/index.js';
import { createSandbox, findBwrap } from '../sandbox/index.js';
import { createBashTool } from './bash-tool.js';
import { createWorkspace } from './workspace.js';

const root = mkdtempSync(join(tmpdir(), 'cohort-bash-'));
writeFileSync(join(root, 'hello.txt'), 'hi');
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = createWorkspace(root);

describe('bash', () => {
  it('runs in the workspace with only PATH, HOME and LANG', async () => {
    const bash = createBashTool(workspace, {
      parentEnv: {
        PATH: process.env.PATH,
        OPENAI_API_KEY: 'sk-secret',
        TAVILY_API_KEY: 'tvly-secret',
      },
    });
    const result = await bash.execute({ command: 'cat hello.txt; echo; env | sort' }, {});
    if (!result.ok) throw new Error(result.error);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('hi');
    expect(result.stdout).toContain(`HOME=${workspace.root}`);
    expect(result.stdout).not.toContain('secret');
    expect(result.stdout).not.toContain('API_KEY');
  });

  it('reports the exit code and stderr of a failing command', async () => {
    const result = await createBashTool(workspace).execute(
      { command: 'echo oops >&2; exit 3' },
      {},
    );
    expect(result).toMatchObject({ ok: true, exitCode: 3, stderr: 'oops\n', timedOut: false });
  });

  it('runs a command under a timeout longer than a timer can hold, instead of killing it at once', async () => {
    // 3,000,000 s overflowed Node's timer, which then fired after 1 ms.
    const bash = createBashTool(workspace, { timeoutSeconds: 3_000_000 });
    const result = await bash.execute({ command: 'sleep 0.2; echo hi' }, {});
    expect(result).toMatchObject({ ok: true, timedOut: false, exitCode: 0, stdout: 'hi\n' });
  });

  it('kills the whole process group on timeout', async () => {
    const bash = createBashTool(workspace, { timeoutSeconds: 0.3 });
    // The background child would create the marker after the timeout if it survived the kill.
    const result = await bash.execute({ command: '(sleep 1; touch survived) & sleep 5' }, {});
    expect(result).toMatchObject({ ok: true, timedOut: true, exitCode: null });
    expect(result.ok && result.stderr).toContain('killed');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(existsSync(join(root, 'survived'))).toBe(false);
  });

  it('tells the model when a command was killed at sandbox.maxMemoryMb', async (context) => {
    const settings = SandboxSettings.parse({ maxMemoryMb: 128 });
    if (!findBwrap(undefined) || createSandbox({ root, settings }).memoryLimit === 'none')
      context.skip();
    const bash = createBashTool(workspace, { sandbox: settings, timeoutSeconds: 20 });
    const result = await bash.execute(
      { command: 'x=$(head -c 300000000 /dev/zero | tr "\\0" a); echo "kept ${#x}"' },
      {},
    );
    expect(result.ok && result.stdout).not.toContain('kept 300000000');
    expect(result.ok && result.stderr).toContain(
      '[killed: the command used more than sandbox.maxMemoryMb (128 MB) of memory]',
    );
  });

  it('tells the model when a command was killed at sandbox.maxDiskMb (many files, each under the file limit)', async (context) => {
    if (!findBwrap(undefined)) context.skip();
    const settings = SandboxSettings.parse({ maxDiskMb: 64 });
    const bash = createBashTool(workspace, { sandbox: settings, timeoutSeconds: 30 });
    const result = await bash.execute(
      {
        command:
          'for i in 1 2 3 4 5 6 7 8; do head -c 32000000 /dev/zero > fill$i.bin; done; echo done',
      },
      {},
    );
    for (let i = 1; i <= 8; i++) rmSync(join(root, `fill${i}.bin`), { force: true });
    expect(result).toMatchObject({ ok: true, exitCode: null, timedOut: false });
    expect(result.ok && result.stdout).not.toContain('done');
    expect(result.ok && result.stderr).toContain(
      '[killed: the command wrote more than sandbox.maxDiskMb (64 MB) to the disk]',
    );
  });

  it('stops a command writing a file past the file-size limit', async (context) => {
    if (!findBwrap(undefined)) context.skip();
    const bash = createBashTool(workspace, { maxFileMb: 1, timeoutSeconds: 20 });
    const result = await bash.execute({ command: 'head -c 5000000 /dev/zero > big.bin' }, {});
    expect(result.ok && result.exitCode).not.toBe(0);
    expect(statSync(join(root, 'big.bin')).size).toBeLessThanOrEqual(1024 * 1024);
    expect(result.ok && result.stderr).toContain('[a file reached the 1 MB limit of one file]');
  });

  it('lets a command write a file of exactly the file-size limit', async (context) => {
    if (!findBwrap(undefined)) context.skip();
    // POSIX sh counts `ulimit -f` in 512-byte blocks (dash, and bash as sh), not 1024-byte ones.
    const bash = createBashTool(workspace, { maxFileMb: 1, timeoutSeconds: 20 });
    const result = await bash.execute({ command: 'head -c 1048576 /dev/zero > full.bin' }, {});
    expect(result.ok && result.stderr).toBe('');
    expect(result.ok && result.exitCode).toBe(0);
    expect(statSync(join(root, 'full.bin')).size).toBe(1024 * 1024);
  });

  it('truncates long output', async () => {
    const result = await createBashTool(workspace, { maxOutputChars: 100 }).execute(
      { command: 'seq 1 10000' },
      {},
    );
    expect(result.ok && result.stdout.length).toBeLessThan(200);
    expect(result.ok && result.stdout).toContain('characters cut');
  });
});

describe.skipIf(!findBwrap(undefined))('bash creating a trusted file in a subfolder', () => {
  it('tells the model the file was moved aside, and why', async () => {
    const result = await createBashTool(workspace).execute(
      { command: 'mkdir -p pkg && git init -q pkg' },
      {},
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.stderr).toContain(
      "[cohort moved pkg/.git to pkg/.git.blocked-by-cohort: commands do not create this name (git's hooks and config run on your machine",
    );
    expect(existsSync(join(root, 'pkg', '.git'))).toBe(false);
    rmSync(join(root, 'pkg'), { recursive: true });
  });
});

describe.skipIf(!findBwrap(undefined))('bash with allowed hosts', () => {
  it('cannot reach an allowed name that resolves to a loopback address', async () => {
    const server = createServer((_req, res) => res.end('loopback answer'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const bash = createBashTool(workspace, {
        sandbox: SandboxSettings.parse({ allowedHosts: ['localhost'] }),
      });
      const result = await bash.execute({ command: `curl -s -m 5 http://localhost:${port}/` }, {});
      if (!result.ok) throw new Error(result.error);
      expect(result.stdout).not.toContain('loopback answer');
      expect(result.stdout).toContain('private or loopback address (127.0.0.1)');
    } finally {
      server.close();
    }
  }, 20_000);
});
