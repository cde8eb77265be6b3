import { describe, expect, it } from 'vitest';
import { endProcess, type EndableProcess } from './process-end.js';

/** A process whose streams finish a write only when `flush` is called, recording what it did. */
function fakeProcess() {
  const events: string[] = [];
  const pending: (() => void)[] = [];
  const stream = (name: string) => ({
    write: (chunk: string | Uint8Array, callback?: (error?: Error | null) => void) => {
      events.push(`${name} write ${String(chunk)}`);
      pending.push(() => {
        events.push(`${name} written`);
        callback?.();
      });
      return true;
    },
  });
  const proc = {
    exitCode: undefined,
    stdout: stream('stdout'),
    stderr: stream('stderr'),
    exit: (code: number) => void events.push(`exit ${code}`),
  } as EndableProcess;
  const flush = async () => {
    while (pending.length > 0) pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { proc, events, flush };
}

describe('endProcess', () => {
  it('ends `cohort ingest` with its code once stdout and stderr have written what they hold', async () => {
    const { proc, events, flush } = fakeProcess();
    const ending = endProcess('ingest', 1, proc);
    await new Promise((resolve) => setImmediate(resolve));
    expect(proc.exitCode).toBe(1);
    // Not before the streams have written: a pipe's queued output would be lost.
    expect(events).not.toContain('exit 1');
    await flush();
    await ending;
    expect(events.at(-1)).toBe('exit 1');
    expect(events.indexOf('stdout written')).toBeLessThan(events.indexOf('exit 1'));
    expect(events.indexOf('stderr written')).toBeLessThan(events.indexOf('exit 1'));
  });

  it('leaves the ending to Node for other commands (a server runs on past its return)', async () => {
    for (const command of ['serve', 'chat', 'mcp', 'ask', undefined]) {
      const { proc, events, flush } = fakeProcess();
      await endProcess(command, 0, proc);
      await flush();
      expect(proc.exitCode).toBe(0);
      expect(events).toEqual([]);
    }
  });
});
