import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceScript } from '../test/source-script.js';
import { withApprovalsLock, writeApprovals } from './user-approvals.js';

const APPROVALS = pathToFileURL(
  fileURLToPath(new URL('./project-config-approvals.ts', import.meta.url)),
).href;

/** A process that approves `count` folders' configurations, one after the other, as fast as it can. */
async function approver(file: string, name: string, count: number): Promise<number | null> {
  const script = `
    const { approveProjectConfig } = await import(${JSON.stringify(APPROVALS)});
    for (let i = 0; i < ${count}; i++)
      approveProjectConfig({ file: ${JSON.stringify(file)}, project: '/p/${name}-' + i, key: 'cohort.config.json', digest: 'sha256:' + String(i).padStart(64, '0') });
  `;
  const child = spawn(process.execPath, [await sourceScript(script)], {
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('approvals files', () => {
  it('keeps every approval of processes approving side by side', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cohort-approvals-')), 'approved.json');
    const codes = await Promise.all(['a', 'b', 'c', 'd'].map((name) => approver(file, name, 40)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const projects = (JSON.parse(readFileSync(file, 'utf8')) as { projects: object }).projects;
    expect(Object.keys(projects)).toHaveLength(160);
  }, 60_000);

  it("takes over the hold of a process that died, and names another's hold it waited out", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cohort-approvals-')), 'approved.json');
    writeFileSync(`${file}.lock`, '2147483646'); // no such process
    withApprovalsLock(file, () => writeApprovals(file, { version: 1, projects: {} }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, projects: {} });

    writeFileSync(`${file}.lock`, String(process.pid)); // alive: this very process
    expect(() => withApprovalsLock(file, () => 'never', 100)).toThrow(
      `is being written by another cohort process (it holds ${file}.lock) and was not released within 0.1 s`,
    );
  });
});
