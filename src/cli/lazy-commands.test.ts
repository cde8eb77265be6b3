import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cohort-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `cohort <argv>` from source in a fresh process; returns the src/ folders of every module it loaded. */
async function loadedFolders(argv: string[]): Promise<Map<string, number>> {
  const log = join(dir, `${argv[0]}.log`);
  const script = join(dir, 'run.mjs');
  writeFileSync(
    script,
    `const { main } = await import(${JSON.stringify(join(SRC, 'cli/main.ts'))});
const io = { stdout: () => {}, stderr: () => {}, env: { ...process.env, COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd(), isTTY: false };
process.exitCode = await main(${JSON.stringify(argv)}, io);`,
  );
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', join(SRC, 'test/record-modules.mjs'), script],
    { env: { ...process.env, COHORT_MODULE_LOG: log }, timeout: 120_000 },
  );
  const folders = new Map<string, number>();
  for (const url of readFileSync(log, 'utf8').split('\n')) {
    if (!url.startsWith('file://')) continue;
    const path = fileURLToPath(url);
    if (!path.startsWith(SRC)) continue;
    const folder = path.slice(SRC.length).split('/')[0] ?? '';
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  return folders;
}

describe('cohort loads only what a command needs', () => {
  it('cohort ask loads no module of server/, research/, tools/, subagents/ or the coding assistant', async () => {
    const folders = await loadedFolders(['ask', 'What is a ROS 2 topic?', '--json']);
    expect(folders.get('cli')).toBeGreaterThan(0);
    expect(folders.get('assistant')).toBeGreaterThan(0);
    for (const folder of ['server', 'research', 'tools', 'subagents', 'coding', 'mcp'])
      expect(folders.get(folder) ?? 0, folder).toBe(0);
  });
});

describe('import of the library loads only what every use needs', () => {
  it('does not load the OpenTelemetry API until an SDK registers', async () => {
    const log = join(dir, 'library.log');
    const script = join(dir, 'library.mjs');
    writeFileSync(script, `await import(${JSON.stringify(join(SRC, 'index.ts'))});`);
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', join(SRC, 'test/record-modules.mjs'), script],
      { env: { ...process.env, COHORT_MODULE_LOG: log }, timeout: 120_000 },
    );
    const loaded = readFileSync(log, 'utf8');
    expect(loaded).toContain('/src/telemetry/trace-span.ts');
    expect(loaded).not.toContain('/@opentelemetry/');
  });
});
