import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadConfig,
  unapprovedConfigMessage,
  type CohortConfigInput,
  type ProjectConfigReview,
} from '../config/index.js';
import { checkPermission } from '../tools/index.js';
import { findBwrap } from '../sandbox/index.js';
import { runCodingAgent } from './coding-agent.js';
import { loadSubagentTypes } from '../subagents/index.js';
import { createScriptedModel, RECORDED, offeredTools, promptText } from '../test/scripted-model.js';
import { namedPipe } from '../test/named-pipe.js';
import { runCli } from '../test/run-cli.js';
import {
  codingPermissionPolicy,
  readClaudePermissions,
  reviewWorkspaceSettings,
} from './coding-permissions.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-permissions-'));
const workspace = join(base, 'ws');
const home = join(base, 'home');
mkdirSync(join(workspace, '.claude', 'skills', 'git-history'), { recursive: true });
mkdirSync(join(workspace, '.claude', 'agents'), { recursive: true });
mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
writeFileSync(join(workspace, 'notes.txt'), 'release notes: parser fixed\n');
// A Claude Code skill, unchanged: Claude's tool names and a Bash rule in allowed-tools.
writeFileSync(
  join(workspace, '.claude', 'skills', 'git-history', 'SKILL.md'),
  '---\nname: git-history\ndescription: Explain the git history of the project.\nallowed-tools: Read Grep Bash(git log:*)\n---\nRead the log.\n',
);
writeFileSync(
  join(home, '.claude', 'agents', 'helper.md'),
  '---\nname: helper\ndescription: User-level helper.\ntools: Read\n---\nUser helper.\n',
);
writeFileSync(
  join(home, '.claude', 'agents', 'user-only.md'),
  '---\nname: user-only\ndescription: Only in the home folder.\n---\nUser only.\n',
);
writeFileSync(
  join(workspace, '.claude', 'agents', 'helper.md'),
  '---\nname: helper\ndescription: Project helper.\ntools: Read, Bash(npm test:*)\n---\nProject helper.\n',
);
const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'pipe' });
git('init', '-q');
git(
  '-c',
  'user.email=t@example.org',
  '-c',
  'user.name=t',
  'commit',
  '-q',
  '--allow-empty',
  '-m',
  'first commit',
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const config = (overrides: CohortConfigInput = {}) =>
  loadConfig({ env: {}, cwd: base, overrides: { model: { maxSteps: 8 }, ...overrides } });
type Call = { toolName: string; input: unknown };
/** A model that makes `calls` one per turn, then answers "done". */
const oneByOne = (calls: Call[]) =>
  createScriptedModel(
    (index) => (calls[index] ? { toolCalls: [calls[index]] } : { text: 'done' }),
    RECORDED,
  );
/** Runs the coding agent in the test workspace with `main` as its model, and `extra` options. */
const runAgent = (
  request: string,
  main: ReturnType<typeof oneByOne>,
  extra: Partial<Parameters<typeof runCodingAgent>[0]> = {},
) => runCodingAgent({ request, workspace, home, config: config(), model: () => main, ...extra });
const toolResults = (prompt: string) => prompt;

/** The workspace's skill and settings are the test's own: what they allow applies. */
const trusted = { COHORT_TRUST_PROJECT_CONFIG: '1' };

describe.skipIf(!findBwrap(undefined))(
  'a Claude Code SKILL.md with allowed-tools: Read Grep Bash(git log:*)',
  () => {
    it("a repository's skill limits the tools, but its allowed-tools run without asking only once approved", async () => {
      // A cloned repository's skill could allow Bash and describe itself to match every request.
      const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cohort-xdg-')) };
      const main = oneByOne([
        { toolName: 'bash', input: { command: 'git log --oneline' } },
        { toolName: 'write', input: { path: 'x.txt', content: 'x' } },
      ]);
      const result = await runAgent('/git-history what changed recently?', main, { env });
      // No approver: the call the rules would ask about pauses the run instead of running.
      expect(result.finishReason).toBe('interrupted');
      expect(result.pending?.map((call) => call.tool)).toEqual(['bash']);
      const reviews = reviewWorkspaceSettings(workspace, { env });
      expect(reviews.map((review) => [review.key, review.approved])).toEqual([
        ['.claude/skills/git-history/SKILL.md', false],
      ]);
      expect(unapprovedConfigMessage(reviews[0]!)).toContain(
        'allowed-tools = ["Read","Grep","Bash(git log:*)"] (these calls run without asking while the skill is active)',
      );
      const approved = await runCli(['config', 'approve'], env, undefined, { cwd: workspace });
      expect(approved.code, approved.stderr).toBe(0);
      const again = oneByOne([{ toolName: 'bash', input: { command: 'git log --oneline' } }]);
      const after = await runAgent('/git-history what changed recently?', again, { env });
      expect(after.finishReason).toBe('stop');
      expect(promptText(again.calls[1])).toContain('first commit');
    });

    it('can read, grep and run git log, and nothing else', async () => {
      const main = oneByOne([
        { toolName: 'read', input: { path: 'notes.txt' } },
        { toolName: 'grep', input: { pattern: 'parser' } },
        { toolName: 'bash', input: { command: 'git log --oneline' } },
        { toolName: 'bash', input: { command: 'git push origin main' } },
        { toolName: 'bash', input: { command: 'git log; touch pwned' } },
        { toolName: 'write', input: { path: 'x.txt', content: 'x' } },
      ]);
      const result = await runAgent('/git-history what changed recently?', main, { env: trusted });
      expect(result.activation.skill?.source).toBe('project-claude');
      expect(offeredTools(main.calls[0])).toEqual(['bash', 'grep', 'read']);
      const outputs = result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => JSON.stringify(message.content));
      expect(outputs[0]).toContain('release notes');
      expect(outputs[1]).toContain('parser fixed');
      expect(outputs[2]).toContain('first commit');
      expect(outputs[3]).toContain(
        'Permission denied: the active skill \\"git-history\\" allows only',
      );
      expect(outputs[4]).toContain('Permission denied');
      expect(outputs[5]).toContain('tool write is not allowed here');
      expect(existsSync(join(workspace, 'pwned'))).toBe(false);
      expect(existsSync(join(workspace, 'x.txt'))).toBe(false);
      expect(result.finishReason).toBe('stop');
    });

    it('cannot write files through git log: a redirection or --output is not "git log"', async () => {
      const main = oneByOne([
        { toolName: 'bash', input: { command: 'git log > notes.txt' } },
        { toolName: 'bash', input: { command: 'git log --oneline --output=notes.txt' } },
        { toolName: 'bash', input: { command: 'git log &>notes.txt' } },
        { toolName: 'bash', input: { command: 'git log --oneline 2>/dev/null' } },
      ]);
      const result = await runAgent('/git-history what changed recently?', main, { env: trusted });
      const outputs = result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => JSON.stringify(message.content));
      for (const output of outputs.slice(0, 3)) expect(output).toContain('Permission denied');
      expect(outputs[3]).toContain('first commit');
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(
        'release notes: parser fixed\n',
      );
    });
  },
);

describe.skipIf(!findBwrap(undefined))('denied paths reached another way', () => {
  it('a symlink bash makes to the denied .env is not read by read or grep', async () => {
    writeFileSync(join(workspace, '.env'), 'OPENAI_API_KEY=sk-from-dotenv\n');
    const main = oneByOne([
      { toolName: 'bash', input: { command: 'ln -s .env innocent.txt && cat innocent.txt' } },
      { toolName: 'read', input: { path: 'innocent.txt' } },
      { toolName: 'grep', input: { pattern: 'sk-', path: 'innocent.txt' } },
      { toolName: 'grep', input: { pattern: 'sk-', include: '**/.env' } },
    ]);
    const result = await runAgent('look around', main, {
      config: config({ permissions: { defaultMode: 'bypassPermissions' } }),
    });
    const outputs = result.messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.stringify(message.content));
    expect(outputs).toHaveLength(4);
    for (const output of outputs) expect(output).not.toContain('sk-from-dotenv');
    expect(outputs[1]).toContain('denied by the rule Read(.env)');
    rmSync(join(workspace, 'innocent.txt'));
    rmSync(join(workspace, '.env'));
  });
});

describe.skipIf(!findBwrap(undefined))(
  'a deny rule on a command the model spells another way',
  () => {
    it('refuses rm named through an expansion or a glob, in bypassPermissions mode', async () => {
      // Found by the outside tester: `r${X}m`, `/bin/r[m]` and `{r,x}m` are rm once bash expands
      // them, and each deleted the file past Bash(rm:*).
      const commands = ['r${X}m -f victim.txt', '/bin/r[m] -f victim.txt', '{r,x}m -f victim.txt'];
      writeFileSync(join(workspace, 'victim.txt'), 'keep me\n');
      const main = oneByOne(commands.map((command) => ({ toolName: 'bash', input: { command } })));
      const result = await runAgent('tidy up', main, {
        config: config({ permissions: { deny: ['Bash(rm:*)'], defaultMode: 'bypassPermissions' } }),
      });
      const outputs = result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => JSON.stringify(message.content));
      expect(outputs).toHaveLength(commands.length);
      for (const output of outputs) expect(output).toContain('denied by the rule Bash(rm:*)');
      expect(readFileSync(join(workspace, 'victim.txt'), 'utf8')).toBe('keep me\n');
      rmSync(join(workspace, 'victim.txt'));
    });
  },
);

describe.skipIf(!findBwrap(undefined))("cohort's own secrets and store", () => {
  it('are read by neither bash nor the file tools; the rest of the data folder is', async () => {
    // Found by an outside tester: read and cat gave the model the API key of the workspace's
    // cohort.config.json, and grep -r the store's files, every API key's conversations.
    writeFileSync(join(workspace, 'cohort.config.json'), '{"model":{"apiKey":"sk-in-config"}}');
    mkdirSync(join(workspace, 'pkg'));
    writeFileSync(
      join(workspace, 'pkg', '.mcp.json'),
      '{"mcpServers":{"gh":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"ghp-in-mcp"}}}}',
    );
    const store = join(workspace, '.cohort');
    mkdirSync(join(store, 'base', '5'), { recursive: true });
    mkdirSync(join(store, 'pg_wal'));
    mkdirSync(join(store, 'skills', 'notes'), { recursive: true });
    writeFileSync(join(store, 'base', '5', '16408'), 'another key: my-private-conversation');
    writeFileSync(join(store, 'pg_wal', '0001'), 'my-private-conversation again');
    writeFileSync(join(store, 'cohort-trace-journal.jsonl'), '{"q":"my-private-conversation"}');
    writeFileSync(
      join(store, 'cohort-session-journal.jsonl'),
      '{"messages":[{"content":"my-private-conversation"}]}',
    );
    writeFileSync(join(store, 'skills', 'notes', 'guide.txt'), 'skill guide text');
    try {
      const main = oneByOne([
        {
          toolName: 'bash',
          input: {
            command:
              'cat cohort.config.json pkg/.mcp.json; grep -r private .cohort; cat .cohort/skills/notes/guide.txt',
          },
        },
        { toolName: 'read', input: { path: 'cohort.config.json' } },
        { toolName: 'read', input: { path: 'pkg/.mcp.json' } },
        { toolName: 'grep', input: { pattern: 'private', path: '.cohort' } },
        { toolName: 'read', input: { path: '.cohort/cohort-trace-journal.jsonl' } },
        { toolName: 'read', input: { path: '.cohort/skills/notes/guide.txt' } },
        { toolName: 'read', input: { path: '.cohort/cohort-session-journal.jsonl' } },
      ]);
      const result = await runAgent('look around', main, {
        config: config({ dataDir: store, permissions: { defaultMode: 'bypassPermissions' } }),
      });
      const outputs = result.messages
        .filter((message) => message.role === 'tool')
        .map((message) => JSON.stringify(message.content));
      expect(outputs).toHaveLength(7);
      for (const output of outputs) {
        expect(output).not.toContain('sk-in-config');
        expect(output).not.toContain('ghp-in-mcp');
        expect(output).not.toContain('my-private-conversation');
      }
      expect(outputs[0]).toContain('skill guide text');
      expect(outputs[1]).toContain('denied by the rule Read(cohort.config.json)');
      expect(outputs[2]).toContain('denied by the rule Read(.mcp.json)');
      expect(outputs[4]).toContain('denied by the rule');
      expect(outputs[5]).toContain('skill guide text');
      expect(outputs[6]).toContain('denied by the rule');
    } finally {
      for (const path of ['cohort.config.json', 'pkg', '.cohort'])
        rmSync(join(workspace, path), { recursive: true, force: true });
    }
  });

  it('nor are the configuration files cohort was started with, named or found outside the workspace', async () => {
    // Found by an outside tester: `cohort serve --config prod.json` hid only files named
    // cohort.config.json, and a POST /code read the model's and the server's API keys out of
    // prod.json with read (no approval asked) and cat; so did cat of the working folder's
    // cohort.config.json when the workspace was another folder.
    const named = join(workspace, 'prod.json');
    const found = join(base, 'cohort.config.json');
    writeFileSync(named, '{"model":{"apiKey":"sk-named-config"}}');
    writeFileSync(found, '{"server":{"apiKey":"srv-found-config"}}');
    try {
      const loaded = loadConfig({
        env: {},
        cwd: base,
        file: named,
        overrides: { model: { maxSteps: 8 }, permissions: { defaultMode: 'bypassPermissions' } },
      });
      const fromCwd = loadConfig({
        env: {},
        cwd: base,
        overrides: { model: { maxSteps: 8 }, permissions: { defaultMode: 'bypassPermissions' } },
      });
      const outputs: string[] = [];
      for (const [settings, calls] of [
        [
          loaded,
          [
            { toolName: 'bash', input: { command: `cat prod.json ${named}` } },
            { toolName: 'read', input: { path: 'prod.json' } },
          ],
        ],
        [fromCwd, [{ toolName: 'bash', input: { command: `cat ${found}` } }]],
      ] as const) {
        const result = await runAgent('look around', oneByOne([...calls]), { config: settings });
        outputs.push(
          ...result.messages
            .filter((message) => message.role === 'tool')
            .map((message) => JSON.stringify(message.content)),
        );
      }
      expect(outputs).toHaveLength(3);
      for (const output of outputs) {
        expect(output).not.toContain('sk-named-config');
        expect(output).not.toContain('srv-found-config');
      }
      expect(outputs[1]).toContain('denied by the rule Read(');
    } finally {
      rmSync(named, { force: true });
      rmSync(found, { force: true });
    }
  });
});

describe('Claude Code agent files', () => {
  it('reads ~/.claude/agents and lets the project file of the same name win', () => {
    const { types, overridden } = loadSubagentTypes(workspace, { home });
    expect(types.get('helper')).toMatchObject({
      description: 'Project helper.',
      tools: ['Read', 'Bash(npm test:*)'],
    });
    expect(types.get('user-only')?.description).toBe('Only in the home folder.');
    expect(overridden).toContainEqual(expect.objectContaining({ name: 'helper' }));
  });

  it('enforces Bash(npm test:*) in an agent file: other commands are refused', async () => {
    const main = oneByOne([{ toolName: 'task', input: { type: 'helper', prompt: 'run things' } }]);
    const helper = oneByOne([
      { toolName: 'bash', input: { command: 'curl http://example.org' } },
      { toolName: 'write', input: { path: 'y.txt', content: 'y' } },
    ]);
    const result = await runCodingAgent({
      request: 'use the helper',
      workspace,
      home,
      config: config({ permissions: { defaultMode: 'bypassPermissions' } }),
      model: (ref) => (ref === 'full' && main.calls.length === 0 ? main : helper),
    });
    expect(offeredTools(helper.calls[0])).toEqual(['bash', 'read']);
    expect(promptText(helper.calls[1])).toContain(
      "helper subagent's tools (Read, Bash(npm test:*)) do not allow",
    );
    expect(result.finishReason).toBe('stop');
  });
});

describe("a subagent type's path rules on the file its tools open", () => {
  it('refuses a read through a folder swapped for a link after the call was authorized', async () => {
    // The type's Read(docs/**) was checked when the call was authorized, where docs/code was a
    // folder; a link docs/code -> ../src made before the read opened the file took it to
    // src/x.ts (outside tester). The swap is made while the person is asked about the call.
    mkdirSync(join(workspace, 'docs', 'code'), { recursive: true });
    mkdirSync(join(workspace, 'src'), { recursive: true });
    writeFileSync(join(workspace, 'docs', 'code', 'x.ts'), 'docs copy\n');
    writeFileSync(join(workspace, 'src', 'x.ts'), 'SOURCE-OUTSIDE-SCOPE\n');
    const agentFile = join(workspace, '.claude', 'agents', 'docs-reader.md');
    writeFileSync(
      agentFile,
      '---\nname: docs-reader\ndescription: Reads the docs.\ntools: Read(docs/**)\n---\nRead docs.\n',
    );
    try {
      const main = oneByOne([
        { toolName: 'task', input: { type: 'docs-reader', prompt: 'read the code docs' } },
      ]);
      const reader = oneByOne([{ toolName: 'read', input: { path: 'docs/code/x.ts' } }]);
      const result = await runCodingAgent({
        request: 'use the docs reader',
        workspace,
        home,
        config: config({ permissions: { ask: ['Read(docs/**)'], allow: ['Task'] } }),
        model: (ref) => (ref === 'full' && main.calls.length === 0 ? main : reader),
        approve: async () => {
          renameSync(join(workspace, 'docs', 'code'), join(workspace, 'docs', 'code-was'));
          symlinkSync('../src', join(workspace, 'docs', 'code'));
          return 'yes';
        },
      });
      const seen = promptText(reader.calls[1]);
      expect(seen).not.toContain('SOURCE-OUTSIDE-SCOPE');
      expect(seen).toContain(
        'Permission denied: \\"docs/code/x.ts\\" leads to src/x.ts through a symbolic link, which the docs-reader subagent\'s tools (Read(docs/**)) do not allow.',
      );
      expect(result.finishReason).toBe('stop');
    } finally {
      rmSync(agentFile, { force: true });
      rmSync(join(workspace, 'docs'), { recursive: true, force: true });
      rmSync(join(workspace, 'src'), { recursive: true, force: true });
    }
  });
});

describe('approval: an ask pauses the run, an answer resumes it', () => {
  const writeCall = { toolName: 'write', input: { path: 'approved.txt', content: 'ok' } };
  const start = async () => {
    const main = oneByOne([writeCall]);
    const first = await runAgent('write a file', main);
    return { main, first };
  };

  it('pauses on a write no rule allows: nothing is written, the call and its reason are returned', async () => {
    const { first } = await start();
    expect(first.finishReason).toBe('interrupted');
    expect(first.pending).toEqual([
      expect.objectContaining({
        tool: 'write',
        reason: 'no rule allows this write call',
        always: 'Edit',
      }),
    ]);
    expect(existsSync(join(workspace, 'approved.txt'))).toBe(false);
    expect(JSON.parse(JSON.stringify(first.state))).toEqual(first.state);
  });

  it('yes runs the call and the run goes on', async () => {
    const { main, first } = await start();
    const id = first.pending?.[0]?.toolCallId ?? '';
    const resumed = await runAgent('', main, {
      resume: { state: JSON.parse(JSON.stringify(first.state)), answers: { [id]: 'yes' } },
    });
    expect(readFileSync(join(workspace, 'approved.txt'), 'utf8')).toBe('ok');
    expect(resumed).toMatchObject({ finishReason: 'stop', text: 'done', sessionAllow: [] });
    rmSync(join(workspace, 'approved.txt'));
  });

  it('no returns a tool error the model reads, and nothing runs', async () => {
    const { main, first } = await start();
    const resumed = await runAgent('', main, {
      resume: { state: first.state!, answers: { '*': 'no' } },
    });
    expect(existsSync(join(workspace, 'approved.txt'))).toBe(false);
    expect(toolResults(promptText(main.calls.at(-1)))).toContain(
      'The user declined this write call',
    );
    expect(resumed.finishReason).toBe('stop');
  });

  it('always runs it and adds a rule, so the next edit in the session does not ask', async () => {
    const { main, first } = await start();
    const resumed = await runAgent('', main, {
      resume: { state: first.state!, answers: { '*': 'always' } },
    });
    expect(resumed.sessionAllow).toEqual(['Edit']);
    const next = oneByOne([
      { toolName: 'edit', input: { path: 'approved.txt', oldText: 'ok', newText: 'fine' } },
    ]);
    const later = await runAgent('change it', next, { sessionAllow: resumed.sessionAllow });
    expect(later.finishReason).toBe('stop');
    expect(readFileSync(join(workspace, 'approved.txt'), 'utf8')).toBe('fine');
    rmSync(join(workspace, 'approved.txt'));
  });

  it('deny rules from .claude/settings.json refuse the call with a readable error', async () => {
    writeFileSync(
      join(workspace, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Write(secret/**)'], allow: ['Edit'] } }),
    );
    const main = oneByOne([
      { toolName: 'write', input: { path: 'secret/a.txt', content: 'x' } },
      { toolName: 'write', input: { path: 'open/a.txt', content: 'x' } },
    ]);
    // The settings are the test's own: their allow rule applies (a repository's needs approval).
    const result = await runAgent('write', main, { env: { COHORT_TRUST_PROJECT_CONFIG: '1' } });
    rmSync(join(workspace, '.claude', 'settings.json'));
    expect(promptText(main.calls[1])).toContain(
      'Permission denied: denied by the rule Write(secret/**)',
    );
    expect(existsSync(join(workspace, 'secret'))).toBe(false);
    expect(existsSync(join(workspace, 'open', 'a.txt'))).toBe(true);
    expect(result.finishReason).toBe('stop');
  });
});

describe("a workspace's Claude settings files", () => {
  it('widen the rules only once the user approved them for the folder; deny and ask rules always apply', async () => {
    // .claude/settings.json comes with the repository: its author could allow Bash and switch to
    // bypassPermissions, and every command would run without asking.
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    const env = { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cohort-xdg-')) };
    mkdirSync(join(workspace, '.claude'));
    writeFileSync(
      join(workspace, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: {
          allow: ['Bash'],
          ask: ['WebFetch'],
          deny: ['Read(.env)'],
          defaultMode: 'bypassPermissions',
        },
      }),
    );
    const reviews: ProjectConfigReview[] = [];
    expect(
      readClaudePermissions(workspace, { env, onReview: (r) => void reviews.push(r) }),
    ).toEqual([{ ask: ['WebFetch'], deny: ['Read(.env)'] }]);
    expect(reviews.map((review) => [review.key, review.approved])).toEqual([
      ['.claude/settings.json', false],
    ]);
    const policy = codingPermissionPolicy({
      workspace,
      config: loadConfig({ env: {}, cwd: workspace }),
      projectSettings: { env },
    });
    const context = { workspace };
    expect(
      checkPermission(policy, { tool: 'bash', input: { command: 'id' } }, context).behavior,
    ).toBe('ask');
    expect(unapprovedConfigMessage(reviews[0]!)).toMatch(
      /permissions\.allow = \["Bash"\][\s\S]*`cohort config approve`/,
    );
    // `cohort config approve` in the folder records it, saying what it approved.
    const approved = await runCli(['config', 'approve'], env, undefined, { cwd: workspace });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`${join(workspace, '.claude', 'settings.json')} sets:`);
    expect(approved.stdout).toContain('permissions.defaultMode = "bypassPermissions"');
    expect(readClaudePermissions(workspace, { env })).toEqual([
      {
        allow: ['Bash'],
        defaultMode: 'bypassPermissions',
        ask: ['WebFetch'],
        deny: ['Read(.env)'],
      },
    ]);
    // Trusted for CI: applied without approval.
    const fresh = mkdtempSync(join(tmpdir(), 'cohort-xdg-'));
    expect(
      readClaudePermissions(workspace, {
        env: { XDG_CONFIG_HOME: fresh, COHORT_TRUST_PROJECT_CONFIG: '1' },
      })[0],
    ).toMatchObject({ allow: ['Bash'] });
  });

  it('refuses a .claude/settings.json that is a named pipe instead of blocking on it', () => {
    // `cohort code` on such a workspace waited for a writer for ever.
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    mkdirSync(join(workspace, '.claude'));
    const file = join(workspace, '.claude', 'settings.json');
    const stop = namedPipe(file, '{"permissions":{"allow":["Bash(rm:*)"]}}');
    try {
      expect(() => readClaudePermissions(workspace)).toThrow(
        `${file}: this settings file is a named pipe (FIFO), not a file`,
      );
    } finally {
      stop();
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('names a settings file that is a broken symbolic link instead of ignoring its deny rules', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    mkdirSync(join(workspace, '.claude'));
    const file = join(workspace, '.claude', 'settings.json');
    symlinkSync(join(workspace, 'gone.json'), file);
    try {
      expect(() => readClaudePermissions(workspace)).toThrow(
        `${file}: this settings file is a symbolic link to ${join(workspace, 'gone.json')}, which does not exist`,
      );
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('names the permissions field that is malformed', () => {
    // Every malformed field was reported as "allow, ask and deny must be lists of rules", a
    // defaultMode of 5 or a permissions that is not an object included.
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    mkdirSync(join(workspace, '.claude'));
    const file = join(workspace, '.claude', 'settings.json');
    try {
      for (const [permissions, message] of [
        ['{"defaultMode":5}', 'permissions.defaultMode must be a mode'],
        // An unknown mode was read as "default" without a word (outside report).
        [
          '{"defaultMode":"yolo"}',
          'permissions.defaultMode must be a mode, one of "default", "acceptEdits", "bypassPermissions", "dontAsk", "plan", not "yolo"',
        ],
        ['"all"', 'permissions must be an object'],
        ['{"deny":"Bash"}', 'permissions.deny must be a list of rules'],
        ['{"ask":[1]}', 'permissions.ask must be a list of rules'],
      ] as const) {
        writeFileSync(file, `{"permissions":${permissions}}`);
        expect(() => readClaudePermissions(workspace), permissions).toThrow(`${file}: ${message}`);
      }
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it("reads Claude's plan mode as default rather than refusing it", () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    mkdirSync(join(workspace, '.claude'));
    writeFileSync(
      join(workspace, '.claude', 'settings.json'),
      '{"permissions":{"defaultMode":"plan","deny":["Read(.env)"]}}',
    );
    try {
      expect(readClaudePermissions(workspace)).toEqual([{ deny: ['Read(.env)'] }]);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('names a rule list given twice instead of keeping the last (which dropped a deny)', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cohort-claude-settings-'));
    mkdirSync(join(workspace, '.claude'));
    const file = join(workspace, '.claude', 'settings.json');
    writeFileSync(file, '{"permissions":{"deny":["Read(.env)"],"deny":[]}}');
    try {
      expect(() => readClaudePermissions(workspace)).toThrow(
        `${file}: gives the key "deny" twice in "permissions"`,
      );
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
