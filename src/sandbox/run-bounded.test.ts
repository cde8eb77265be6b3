import { describe, expect, it } from 'vitest';
import { runBounded } from './run-bounded.js';

describe('runBounded', () => {
  it('keeps characters whole when a read splits their bytes (UTF-8 across chunks)', async () => {
    // Odd offset: the pipe's 64 KB reads end inside a two-byte character, which decoding each
    // chunk alone turned into two U+FFFD.
    const script = "process.stdout.write('a' + 'é'.repeat(200000))";
    const run = await runBounded(process.execPath, ['-e', script], {
      env: {},
      cwd: '/',
      timeoutMs: 20_000,
      keepChars: 1_000_000,
    });
    expect(run.stdout).not.toContain('\uFFFD');
    expect(run.stdout).toBe('a' + 'é'.repeat(200000));
  });

  it('still shows invalid bytes as U+FFFD, and keeps at most keepChars plus one read', async () => {
    const script =
      "process.stdout.write(Buffer.from([0xff, 0xfe, 0x41])); process.stdout.write('x'.repeat(2e6))";
    const run = await runBounded(process.execPath, ['-e', script], {
      env: {},
      cwd: '/',
      timeoutMs: 20_000,
      keepChars: 1000,
    });
    expect(run.stdout.startsWith('\uFFFD\uFFFDA')).toBe(true);
    expect(run.stdout.length).toBeLessThan(1000 + 70_000);
  });
});
