import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sourceScript } from '../test/source-script.js';
import { SERVER_HEAP_V8_FLAGS, useServerHeapSettings } from './heap-settings.js';

const SETTINGS = fileURLToPath(new URL('./heap-settings.ts', import.meta.url));
const run = promisify(execFile);

/**
 * The most heap used (MB) during a churn like a busy server's, in a process of its own (the
 * setting is the process's): a live set, then batches of objects each kept for a few dozen batches
 * (long enough to be promoted) and dropped.
 */
async function heapDuringChurn(withSettings: boolean): Promise<number> {
  const script = `const { useServerHeapSettings } = await import(${JSON.stringify(SETTINGS)});
if (${withSettings}) useServerHeapSettings();
const live = [];
for (let i = 0; i < 200000; i++) live.push({ i, text: 'x'.repeat(20) + i });
const kept = new Array(64).fill(null);
let most = 0;
for (let round = 0; round < 3000; round++) {
  const batch = [];
  for (let j = 0; j < 500; j++) batch.push({ j, text: 'request ' + j + ' ' + round, pair: [j, round] });
  kept[round % kept.length] = batch;
  most = Math.max(most, process.memoryUsage().heapUsed);
}
console.log(live.length > 0 ? most / 1048576 : 0);`;
  const { stdout } = await run(process.execPath, [await sourceScript(script)], { timeout: 60_000 });
  return Number(stdout.trim());
}

describe('the server heap settings', () => {
  it('are flags this Node’s V8 knows (a renamed flag fails here, not silently in cohort serve)', async () => {
    for (const flag of SERVER_HEAP_V8_FLAGS) {
      const { stderr } = await run(process.execPath, [flag, '-e', '0']);
      expect(stderr).toBe('');
    }
    await expect(run(process.execPath, ['--no-such-v8-flag-here', '-e', '0'])).rejects.toThrow();
  });

  it('are what useServerHeapSettings sets', () => {
    const set: string[] = [];
    useServerHeapSettings((flag) => set.push(flag));
    expect(set).toEqual([...SERVER_HEAP_V8_FLAGS]);
  });

  it('keep promoted garbage from growing the heap as far as V8’s own factor lets it', async () => {
    // About 66–70 MB without them and 53–54 MB with them (a live set of about 25 MB).
    const [without, withSettings] = [await heapDuringChurn(false), await heapDuringChurn(true)];
    expect(withSettings).toBeLessThan(without - 5);
  }, 120_000);
});
