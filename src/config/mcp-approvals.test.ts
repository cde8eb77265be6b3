import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import {
  approveProjectMcpServers,
  mcpApprovalsPath,
  mcpServerDigest,
  type ProjectMcpReview,
} from './mcp-approvals.js';

const folder = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('project MCP server approvals', () => {
  it('keeps approvals under XDG_CONFIG_HOME, else the home', () => {
    expect(mcpApprovalsPath({ env: { XDG_CONFIG_HOME: '/x' }, home: '/h' })).toBe(
      '/x/cohort/approved-mcp-servers.json',
    );
    expect(mcpApprovalsPath({ env: {}, home: '/h' })).toBe(
      '/h/.config/cohort/approved-mcp-servers.json',
    );
  });

  it('digests what a definition starts, not how the file orders it', () => {
    const base = { command: 'node', args: ['s.js'], env: { A: '1', B: '2' } };
    expect(mcpServerDigest({ env: { B: '2', A: '1' }, args: ['s.js'], command: 'node' })).toBe(
      mcpServerDigest(base),
    );
    expect(mcpServerDigest({ command: 'node' })).toBe(
      mcpServerDigest({ command: 'node', args: [] }),
    );
    for (const changed of [
      { ...base, command: 'nodejs' },
      { ...base, args: ['t.js'] },
      { ...base, env: { A: '1', B: '3' } },
      { ...base, env: { A: '1', C: '2' } },
      { url: 'https://a.example/mcp' },
    ])
      expect(mcpServerDigest(changed)).not.toBe(mcpServerDigest(base));
  });

  it('leaves unapproved .mcp.json servers out of the configuration, whatever their name', () => {
    const cwd = folder('cohort-approve-');
    const home = folder('cohort-home-');
    writeFileSync(
      join(cwd, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          constructor: { command: 'node' },
          mine: { command: 'evil' },
          other: { command: 'x' },
        },
      }),
    );
    // The user's configuration file redefines "mine": its definition is the user's (approved, as
    // a found cohort.config.json's servers must be: see project-config-approvals.test.ts).
    writeFileSync(
      join(cwd, 'cohort.config.json'),
      JSON.stringify({ mcpServers: { mine: { command: 'good' } } }),
    );
    const env = { COHORT_TRUST_PROJECT_CONFIG: '1' };
    let review: ProjectMcpReview | undefined;
    const config = loadConfig({
      cwd,
      env,
      home,
      onProjectMcpReview: (found) => void (review = found),
    });
    expect(config.mcpServers).toEqual({
      mine: expect.objectContaining({ command: 'good' }),
    });
    expect(review?.servers.map((server) => [server.name, server.approved])).toEqual([
      ['constructor', false],
      ['other', false],
    ]);

    approveProjectMcpServers(review!, ['constructor']);
    // Through a link to the folder: one project, one approval.
    const link = join(folder('cohort-link-'), 'project');
    symlinkSync(cwd, link);
    expect(Object.keys(loadConfig({ cwd: link, env, home }).mcpServers).sort()).toEqual([
      'constructor',
      'mine',
    ]);
    expect(
      Object.keys(
        loadConfig({ cwd, env: { ...env, COHORT_TRUST_PROJECT_MCP: '1' }, home }).mcpServers,
      ),
    ).toHaveLength(3);
  });

  it('names a malformed approvals file', () => {
    const cwd = folder('cohort-approve-');
    const home = folder('cohort-home-');
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { a: { command: 'x' } } }));
    const file = mcpApprovalsPath({ env: {}, home });
    const review = loadReview(cwd, home);
    approveProjectMcpServers(review, ['a']);
    writeFileSync(file, '{"version": 2, "projects": {}}');
    expect(() => loadConfig({ cwd, env: {}, home })).toThrow(
      expect.objectContaining({ code: 'invalid_input', message: expect.stringContaining(file) }),
    );
  });
});

function loadReview(cwd: string, home: string): ProjectMcpReview {
  let review: ProjectMcpReview | undefined;
  loadConfig({ cwd, env: {}, home, onProjectMcpReview: (found) => void (review = found) });
  return review!;
}
