import { describe, expect, it } from 'vitest';
import { runPython } from './python-sandbox.js';

describe('runPython (Pyodide in a worker thread)', () => {
  it('runs code and returns what it printed and its last value', async () => {
    const run = await runPython('import statistics\nprint(statistics.mean([1, 2, 3, 4]))\n6 * 7', {
      timeoutMs: 10_000,
    });
    expect(run).toMatchObject({ status: 'ok', stdout: '2.5', result: '42' });
  });

  it('stops a loop that never ends at the time limit by terminating the worker', async () => {
    const run = await runPython('while True: pass', { timeoutMs: 2500 });
    expect(run.status).toBe('timeout');
    expect(run.error).toContain('did not finish within 2500 ms');
  });

  it('has no host file system and no way to the network', async () => {
    const files = await runPython("open('/etc/hostname').read()", { timeoutMs: 10_000 });
    expect(files.status).toBe('error');
    expect(files.error).toContain('FileNotFoundError');
    const js = await runPython('import js\njs.fetch', { timeoutMs: 10_000 });
    expect(js).toMatchObject({
      status: 'error',
      error: expect.stringContaining('import of js halted'),
    });
    const http = await runPython('from pyodide.http import pyfetch', { timeoutMs: 10_000 });
    expect(http.status).toBe('error');
  });

  it('returns a Python error as a value', async () => {
    const run = await runPython('1 / 0', { timeoutMs: 10_000 });
    expect(run.status).toBe('error');
    expect(run.error).toMatch(/^Traceback[\s\S]*ZeroDivisionError/);
    expect(run.error).not.toContain('_pyodide/_base.py');
  });
});
