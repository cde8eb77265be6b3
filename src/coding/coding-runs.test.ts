import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createScriptedModel } from '../test/scripted-model.js';
import { answerCodeRun, startCodeRun } from './coding-runs.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-code-runs-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');

let store: Store;
beforeAll(async () => {
  mkdirSync(workspace);
  mkdirSync(home);
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(async () => {
  await store.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a file call holding text no file can carry', () => {
  it('is refused before it is asked about, so no approved call writes U+FFFD in its place', async () => {
    // Found by outside testing: a write with a NUL in its content paused for approval; the paused
    // call was stored with U+FFFD for the NUL (the database holds no NUL), and "yes" wrote that.
    const seen: string[] = [];
    const model = createScriptedModel((call, options) => {
      seen.push(JSON.stringify(options.prompt));
      return call === 0
        ? { toolCalls: [{ toolName: 'write', input: { path: 'a.bin', content: 'x\u0000y' } }] }
        : { text: 'Done.' };
    });
    const options = {
      workspace,
      home,
      config: loadConfig({ env: {}, cwd: base }),
      model: () => model,
    };
    const { runId, result } = await startCodeRun(store.runs, { ...options, request: 'Write it.' });
    if (result.pending) {
      await answerCodeRun(store.runs, runId, { '*': 'yes' }, options);
      expect(readFileSync(join(workspace, 'a.bin'), 'utf8')).toBe('x\uFFFDy');
    }
    expect(result.pending).toBeUndefined();
    expect(existsSync(join(workspace, 'a.bin'))).toBe(false);
    expect(seen.at(-1)).toContain('content holds a NUL character at position 2');
  });
});
