import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import { CALC_MCP_SERVER } from '../../test/fixture-mcp-config.js';
import { runCli } from '../../test/run-cli.js';
import type { CliIo } from '../command.js';
import { main } from '../main.js';

// A project's .mcp.json names commands cohort would run on the user's machine: they start only
// once the user approved them (`cohort mcp approve`), per folder and per definition. `marker` is
// a command that leaves a file behind when started (and is no MCP server); `calc` a real one.

interface Project {
  cwd: string;
  marker: string;
  env: { XDG_CONFIG_HOME: string };
  write: (calcName?: string) => void;
}

function project(): Project {
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-mcp-approve-'));
  const marker = join(cwd, 'started.txt');
  const write = (calcName = 'calc-fixture') =>
    writeFileSync(
      join(cwd, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          marker: {
            command: process.execPath,
            args: ['-e', "require('node:fs').writeFileSync(process.argv[1], 'started')", marker],
          },
          calc: { ...CALC_MCP_SERVER, env: { FIXTURE_NAME: calcName } },
        },
      }),
    );
  write();
  // The user's own configuration folder, where approvals are recorded.
  const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cohort-xdg-')) };
  return { cwd, marker, env, write };
}

describe('project MCP servers need approval', () => {
  let model: FakeOpenAI | undefined;
  afterEach(() => model?.close());

  it('cohort ask and cohort mcp list start none before approval, and say how to approve', async () => {
    const { cwd, marker, env } = project();
    model = await startFakeOpenAI({ chat: [{ kind: 'text', text: 'An answer.' }] });
    const asked = await runCli(
      ['ask', 'What is a topic?', '--json'],
      { ...env, OPENAI_BASE_URL: model.baseUrl, COHORT_MODEL: 'scripted' },
      undefined,
      { cwd },
    );
    expect(asked.code, asked.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const offered = (
      model.requests[0]?.body as { tools?: { function: { name: string } }[] }
    ).tools?.map((tool) => tool.function.name);
    expect(offered ?? []).not.toContain('mcp__calc__add');
    expect(asked.stderr).toContain('did not start the MCP servers "marker", "calc"');
    expect(asked.stderr).toContain('cohort mcp approve');
    expect(asked.stderr.split('did not start').length).toBe(2);

    const listed = await runCli(['mcp', 'list'], env, undefined, { cwd });
    expect(listed.code).toBe(1);
    expect(existsSync(marker)).toBe(false);
    expect(listed.stdout).toMatch(/marker \(stdio, needs approval\): not started/);
    expect(listed.stdout).toMatch(
      /calc \(stdio, needs approval\): not started .*cohort mcp approve calc/,
    );
  }, 90_000);

  it('starts them once approved, and asks again when a definition changes', async () => {
    const { cwd, marker, env, write } = project();
    const shown = await runCli(['mcp', 'approve'], env, undefined, { cwd });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`marker (needs approval): ${process.execPath} -e`);
    expect(shown.stdout).toContain('approve --all');
    expect(existsSync(marker)).toBe(false);

    const approved = await runCli(['mcp', 'approve', '--all'], env, undefined, { cwd });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Approved "marker", "calc"');
    expect(existsSync(marker)).toBe(false);

    const listed = await runCli(['mcp', 'list'], env, undefined, { cwd });
    expect(existsSync(marker)).toBe(true);
    expect(listed.stdout).toContain('calc (stdio, approved): connected');
    expect(listed.stderr).not.toContain('did not start');

    // The same name with another environment is another server: approved no longer.
    write('someone-else');
    const changed = await runCli(['mcp', 'list', '--json'], env, undefined, { cwd });
    const servers = (
      JSON.parse(changed.stdout) as {
        servers: { name: string; approval: string; status: string }[];
      }
    ).servers;
    expect(servers.find((server) => server.name === 'calc')).toMatchObject({
      approval: 'needs approval',
      status: 'not started',
    });
    expect(servers.find((server) => server.name === 'marker')).toMatchObject({
      approval: 'approved',
    });

    const again = await runCli(['mcp', 'approve', 'calc'], env, undefined, { cwd });
    expect(again.code).toBe(0);
    const relisted = await runCli(['mcp', 'list'], env, undefined, { cwd });
    expect(relisted.stdout).toContain('calc (stdio, approved): connected');
  }, 90_000);

  it('approvals belong to the folder: the same .mcp.json elsewhere needs its own', async () => {
    const first = project();
    await runCli(['mcp', 'approve', '--all'], first.env, undefined, { cwd: first.cwd });
    const second = project();
    const listed = await runCli(['mcp', 'list'], first.env, undefined, { cwd: second.cwd });
    expect(listed.stdout).toContain('marker (stdio, needs approval)');
    expect(existsSync(second.marker)).toBe(false);
  }, 60_000);

  it('COHORT_TRUST_PROJECT_MCP=1 starts them without approval', async () => {
    const { cwd, marker, env } = project();
    const listed = await runCli(
      ['mcp', 'list'],
      { ...env, COHORT_TRUST_PROJECT_MCP: '1' },
      undefined,
      { cwd },
    );
    expect(existsSync(marker)).toBe(true);
    expect(listed.stdout).toContain('calc (stdio, trusted): connected');
  }, 60_000);

  it('names an unknown server, and a malformed approvals file', async () => {
    const { cwd, env } = project();
    const unknown = await runCli(['mcp', 'approve', 'nope'], env, undefined, { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'No MCP server "nope" in .mcp.json; its servers are marker, calc',
    );

    const file = join(env.XDG_CONFIG_HOME, 'cohort', 'approved-mcp-servers.json');
    mkdirSync(join(env.XDG_CONFIG_HOME, 'cohort'));
    for (const text of ['{ not json', '{"version": 1, "projects": {"/x": {"calc": 42}}}', '[]']) {
      writeFileSync(file, text);
      const listed = await runCli(['mcp', 'list'], env, undefined, { cwd });
      expect(listed.code, text).toBe(2);
      expect(listed.stderr).toContain(file);
    }
  }, 60_000);

  it('cohort code on a terminal asks y/N once per server, and remembers a yes', async () => {
    const { cwd, marker, env } = project();
    model = await startFakeOpenAI({ chat: [{ kind: 'text', text: 'Done.' }] });
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      env: {
        ...env,
        COHORT_DATA_DIR: 'memory://',
        OPENAI_BASE_URL: model.baseUrl,
        COHORT_MODEL: 'scripted',
      },
      cwd,
      isTTY: true,
      stdinIsTTY: true,
      stdin: (async function* () {
        yield 'n'; // marker
        yield 'y'; // calc
      })(),
    };
    const code = await main(['code', 'Say done.'], io);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('names the MCP server "marker"');
    expect(stdout).toContain(`${process.execPath} -e`);
    expect(stderr).toContain('did not start the MCP server "marker"');
    expect(existsSync(marker)).toBe(false);
    const offered = (
      model.requests[0]?.body as { tools?: { function: { name: string } }[] }
    ).tools?.map((tool) => tool.function.name);
    expect(offered).toContain('mcp__calc__add');
    const listed = await runCli(['mcp', 'list'], env, undefined, { cwd });
    expect(listed.stdout).toContain('calc (stdio, approved): connected');
    expect(listed.stdout).toContain('marker (stdio, needs approval)');
  }, 90_000);
});
