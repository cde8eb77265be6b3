import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../config/index.js';
import { sourceFingerprint } from '../store/source-fingerprint.js';
import { sourceScript } from './source-script.js';
import { testCli } from './test-cli.js';

const run = promisify(execFile);
const CONFIG = fileURLToPath(new URL('../config/index.ts', import.meta.url));
const FINGERPRINT = fileURLToPath(new URL('../store/source-fingerprint.ts', import.meta.url));
const ROUTING = new URL('../routing/', import.meta.url).href;

describe("the run's bundles of the sources, for child processes", () => {
  it('run each module as its source file: the same package root and build-cache fingerprints', async () => {
    // Bundled into the run's temporary folder, a module that found the package root or hashed its
    // folder from the bundle's own location would find no package.json, or hash the bundle.
    const script = `const { packageRoot } = await import(${JSON.stringify(CONFIG)});
const { sourceFingerprint } = await import(${JSON.stringify(FINGERPRINT)});
process.stdout.write(JSON.stringify([packageRoot(), sourceFingerprint(new URL(${JSON.stringify(ROUTING)}))]));`;
    const { stdout } = await run(process.execPath, [await sourceScript(script)]);
    expect(JSON.parse(stdout)).toEqual([packageRoot(), sourceFingerprint(new URL(ROUTING))]);
  });

  it('start cohort from the bundled CLI', async () => {
    const { stdout } = await run(process.execPath, [testCli(), '--help']);
    expect(stdout).toContain('Usage: cohort <command>');
  });
});
