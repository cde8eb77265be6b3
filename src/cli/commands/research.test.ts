import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCohortError } from '../../errors/index.js';
import { EMPTY_QUERY_MESSAGE } from '../../schema/index.js';
import { startFixtureServer, type FixtureServer } from '../../test/fixture-server.js';
import type { CliIo } from '../command.js';
import { researchCommand } from './research.js';

const atom = readFileSync(
  new URL('../../tools/fixtures/arxiv-search.atom.xml', import.meta.url),
  'utf8',
);

describe('cohort research', () => {
  let arxiv: FixtureServer;
  beforeAll(async () => {
    arxiv = await startFixtureServer(() => ({ body: atom, type: 'application/atom+xml' }));
  });
  afterAll(() => arxiv.close());

  const io = (out: string[], err: string[]): CliIo => ({
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { COHORT_DATA_DIR: 'memory://', ARXIV_BASE_URL: `${arxiv.url}/api/query` },
    cwd: '/',
    isTTY: false,
  });

  it('prints { run_id, question, tasks, findings, sources, report } with --json, without a model', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await researchCommand.run(
      ['What is a ROS 2 topic and how does Gazebo simulate sensors?', '--json'],
      io(out, err),
    );
    expect(code).toBe(0);
    const json = JSON.parse(out.join('')) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      'run_id',
      'question',
      'tasks',
      'findings',
      'sources',
      'report',
    ]);
    expect(json.tasks).toHaveLength(2);
    expect(json.report).toContain('No analysis model was used');
    expect((json.findings as { mode: string }[]).every((f) => f.mode === 'extractive')).toBe(true);
    expect(err.join('')).toContain('No model is configured');
  });

  it('shows a line per subagent and then the report', async () => {
    const out: string[] = [];
    const err: string[] = [];
    await researchCommand.run(['What is the zero moment point?'], io(out, err));
    expect(err.join('')).toMatch(/task-1 +done +\d+ src/);
    expect(out.join('')).toContain('## Sources');
  });

  it('rejects a bad --tasks value and a missing question', async () => {
    const bad = await researchCommand
      .run(['q', '--tasks', 'zero'], io([], []))
      .catch((e: unknown) => e);
    expect(isCohortError(bad, 'invalid_input')).toBe(true);
    const missing = await researchCommand.run([], io([], [])).catch((e: unknown) => e);
    expect(isCohortError(missing, 'invalid_input')).toBe(true);
    // The empty question gets the message ask, route and POST /research give ("Missing
    // question." before), as docs/specs.md says.
    const blank = await researchCommand.run(['  '], io([], [])).catch((e: unknown) => e);
    expect(String((blank as Error).message)).toContain(EMPTY_QUERY_MESSAGE);
  });

  it('refuses a question it cannot take before it opens the store: no data folder is made', async () => {
    // Found by an outside tester: a question over 2,000 characters made the data folder and
    // ingested the book, then was refused.
    const dataDir = join(mkdtempSync(join(tmpdir(), 'cohort-research-')), 'data');
    const err: string[] = [];
    const refused = await researchCommand
      .run(['x'.repeat(2_001), '--data-dir', dataDir], io([], err))
      .catch((e: unknown) => e);
    expect(isCohortError(refused, 'invalid_input')).toBe(true);
    expect(String((refused as Error).message)).toContain('The question is too long');
    expect(existsSync(dataDir)).toBe(false);
    expect(err.join('')).not.toContain('Ingested');
  });

  it('says there is no run to resume in a data folder that holds no store, and makes none', async () => {
    // Found by an outside tester: --resume on a missing folder made it and ingested the book
    // before saying the run did not exist.
    const dataDir = join(mkdtempSync(join(tmpdir(), 'cohort-research-')), 'data');
    const err: string[] = [];
    const refused = await researchCommand
      .run(['--resume', 'no-such-run', '--data-dir', dataDir], io([], err))
      .catch((e: unknown) => e);
    expect(isCohortError(refused, 'not_found')).toBe(true);
    expect(String((refused as Error).message)).toContain(
      `No research run "no-such-run": the data folder ${dataDir} holds no store (nothing was created).`,
    );
    expect(existsSync(dataDir)).toBe(false);
    // In memory there is never a run to resume.
    const inMemory = await researchCommand
      .run(['--resume', 'no-such-run'], io([], []))
      .catch((e: unknown) => e);
    expect(isCohortError(inMemory, 'not_found')).toBe(true);
  });
});
