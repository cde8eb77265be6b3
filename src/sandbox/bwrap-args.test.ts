import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxSettings } from '../config/index.js';
import { bwrapArgs, HOST_KERNEL_PROC } from './bwrap-args.js';
import { findBwrap } from './find-bwrap.js';
import { runCode } from './code-runner.js';
import { createSandbox } from './sandbox.js';

const bwrap = findBwrap(undefined);
const asRoot = process.getuid?.() === 0;
// Outside /tmp: the sandbox's /tmp is private.
const cache = join(process.cwd(), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const root = mkdtempSync(join(cache, 'cohort-bwrap-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether each path is writable, asked with access(2) (`test -w`): nothing is written. */
const PROBE = [
  '/proc/sys/kernel/core_pattern',
  '/proc/sys/vm/drop_caches',
  '/proc/sysrq-trigger',
  '/proc/irq/default_smp_affinity',
]
  .map((path) => `test -w ${path} && echo "${path} writable"`)
  .join('; ');

describe("the host kernel's settings in the sandbox's /proc", () => {
  it('are mounted read-only over the new /proc', () => {
    const args = bwrapArgs({ cwd: root, writable: [root], denyRead: [], env: {} }, ['true']);
    const proc = args.indexOf('--proc');
    for (const path of HOST_KERNEL_PROC) {
      const at = args.findIndex((arg, i) => arg === path && args[i - 1] === '--ro-bind-try');
      expect(at, path).toBeGreaterThan(proc);
      expect(args[at + 1]).toBe(path);
    }
  });

  // Run as root, a command could write the host's sysctls: kernel.core_pattern set to `|prog`
  // runs prog as root on the host at the next crash.
  it.skipIf(!bwrap || !asRoot)('cannot be written by a command or code run as root', async () => {
    const sandbox = createSandbox({
      root,
      settings: SandboxSettings.parse({}),
      home: root,
      parentEnv: { PATH: process.env.PATH },
    });
    const run = await sandbox.run({
      argv: ['/bin/sh', '-c', `${PROBE}; cat /proc/sys/kernel/ostype`],
      timeoutMs: 10_000,
      keepChars: 10_000,
    });
    expect(run.stdout.trim()).toBe('Linux');
    const code = await runCode(
      `import os\nprint([p for p in ${JSON.stringify(PROBE.split('; ').map((c) => c.split(' ')[2]))} if os.access(p, os.W_OK)])`,
      { settings: SandboxSettings.parse({}), timeoutMs: 10_000 },
    );
    expect(code.stdout.trim()).toBe('[]');
  });
});
