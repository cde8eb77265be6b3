import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBwrap } from '../../sandbox/index.js';
import { createScriptedModel, RECORDED, promptText } from '../../test/scripted-model.js';
import type { CliIo } from '../command.js';
import { createCodeCommand } from './code.js';

const base = mkdtempSync(join(tmpdir(), 'cohort-code-sandbox-'));
const workspace = join(base, 'ws');
// Outside /tmp (the sandbox's /tmp is private, which would hide these anyway): the deny list
// and the read-only system are what must stop the reads and writes. A clone that itself lives
// under /tmp uses the home folder's cache instead, or a write into the sandbox's private /tmp
// would look like a write that got out.
// The sandbox's private folder is /tmp itself, whatever TMPDIR says (the test run sets its own).
const underTmp = (path: string) => path === '/tmp' || path.startsWith('/tmp' + sep);
const cache = underTmp(process.cwd())
  ? join(homedir(), '.cache')
  : join(process.cwd(), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const hostDir = mkdtempSync(join(cache, 'cohort-code-sandbox-'));
const home = join(hostDir, 'home');
mkdirSync(workspace);
mkdirSync(join(home, '.ssh'), { recursive: true });
writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY MATERIAL');
writeFileSync(join(workspace, '.env'), 'DATABASE_URL=postgres://from-dotenv');
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('internal service answer'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
  rmSync(base, { recursive: true, force: true });
  rmSync(hostDir, { recursive: true, force: true });
});

/** A terminal whose typed lines are `typed`, one per read. */
function terminal(typed: string[] = [], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { HOME: home, PATH: process.env.PATH, COHORT_DATA_DIR: join(base, 'data'), ...env },
    cwd: base,
    isTTY: false,
    stdin: (async function* () {
      for (const line of typed) yield line;
    })(),
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** A scripted model making `commands` as bash calls, one per turn, then answering. */
const bashModel = (commands: string[]) =>
  createScriptedModel(
    (index) =>
      commands[index]
        ? { toolCalls: [{ toolName: 'bash', input: { command: commands[index] } }] }
        : { text: 'finished' },
    RECORDED,
  );

/** What each bash call returned, as the model read it. */
const toolOutputs = (calls: ReturnType<typeof bashModel>['calls']) =>
  calls.slice(1).map((call) => {
    const prompt = call.prompt;
    return JSON.stringify(prompt[prompt.length - 1]);
  });

describe.skipIf(!findBwrap(undefined))(
  'cohort code: bash inside the sandbox (scripted model)',
  () => {
    it('cannot write outside, reach 127.0.0.1, see OPENAI_API_KEY or read a denied path; the model reads each refusal', async () => {
      const main = bashModel([
        `echo pwned > ${hostDir}/outside.txt`,
        `curl -sS -m 3 http://127.0.0.1:${port}/`,
        'echo "key=[$OPENAI_API_KEY]"; tr "\\0" "\\n" < /proc/$PPID/environ | grep -c OPENAI_API_KEY',
        `cat ${home}/.ssh/id_ed25519; cat .env; ls -A ${home}/.ssh | wc -l`,
      ]);
      const t = terminal([], { OPENAI_API_KEY: 'sk-live-secret' });
      const code = await createCodeCommand({ model: () => main }).run(
        ['poke around', '--workspace', workspace, '--allow', 'Bash'],
        t.io,
      );
      expect(code).toBe(0);
      const [write, curl, env, denied] = toolOutputs(main.calls);
      expect(write).toContain('Read-only file system');
      expect(existsSync(join(hostDir, 'outside.txt'))).toBe(false);
      expect(curl).toMatch(/Couldn't connect|Failed to connect|Could not resolve/);
      expect(curl).not.toContain('internal service answer');
      expect(env).toContain('key=[]');
      expect(env).not.toContain('sk-live-secret');
      expect(denied).not.toMatch(/PRIVATE KEY MATERIAL|from-dotenv/);
      // ~/.ssh is there, and empty.
      expect(
        (
          JSON.parse(denied ?? '{}') as {
            content: Array<{ output: { value: { stdout: string } } }>;
          }
        ).content[0]?.output.value.stdout,
      ).toBe('0\n');
      expect(t.out()).toContain('finished');
    });

    it('the read tool refuses the denied .env too, as a readable error', async () => {
      const main = createScriptedModel(
        (index) =>
          index === 0
            ? { toolCalls: [{ toolName: 'read', input: { path: '.env' } }] }
            : { text: 'ok' },
        RECORDED,
      );
      const t = terminal();
      await createCodeCommand({ model: () => main }).run(
        ['read it', '--workspace', workspace],
        t.io,
      );
      expect(promptText(main.calls[1])).toContain(
        'Permission denied: denied by the rule Read(.env)',
      );
      expect(promptText(main.calls[1])).not.toContain('from-dotenv');
    });
  },
);

describe('cohort code: approvals in the terminal', () => {
  const writeModel = () =>
    createScriptedModel((index, options) => {
      const last = JSON.stringify(options.prompt.at(-1));
      if (index === 0)
        return { toolCalls: [{ toolName: 'write', input: { path: 'a.txt', content: 'A' } }] };
      if (index === 1 && last.includes('"bytes"'))
        return { toolCalls: [{ toolName: 'write', input: { path: 'b.txt', content: 'B' } }] };
      return { text: `done after ${index}` };
    }, RECORDED);

  it('shows a command for approval in the order it runs, its bidirectional controls as code points', async () => {
    // A terminal that lays out right-to-left text showed the command reordered by the model's
    // U+202E / U+2066…U+2069, so the user could approve another command than the one run.
    const command = 'ls #\u2066 safe \u2069\u202e ; rm -rf ~ \u202c';
    const main = bashModel([command]);
    const t = terminal(['n']);
    await createCodeCommand({ model: () => main }).run(['list', '--workspace', workspace], t.io);
    expect(t.out()).toContain(
      '? bash wants to run: ls #<U+2066> safe <U+2069><U+202E> ; rm -rf ~ <U+202C>',
    );
    // Bash reads everything after `#` as a comment, so the command run is `ls`: the rule an
    // "always" adds is `ls`'s own.
    expect(t.out()).toContain('(adds Bash(ls:*) for this session)');
    expect(t.out()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(promptText(main.calls[1])).toContain('The user declined this bash call');
  });

  it('shows a command for approval on one line, so blank lines cannot scroll a part of it away', async () => {
    // Found by the outside tester: a command of `rm …`, sixty newlines and `npm test` showed, on
    // the screen the user answers from, `npm test` and the prompt only; bash runs both.
    const command = `rm -f victim.txt${'\n'.repeat(60)}npm test`;
    const spaced = `rm -f victim.txt;${' '.repeat(4000)}npm test`;
    const main = bashModel([command, spaced]);
    const t = terminal(['n', 'n']);
    await createCodeCommand({ model: () => main }).run(['tidy', '--workspace', workspace], t.io);
    expect(t.out()).toContain('? bash wants to run: rm -f victim.txt␤×60npm test\n');
    expect(t.out()).toContain('? bash wants to run: rm -f victim.txt; ␠×4000 npm test\n');
    expect(t.out()).toContain('(adds Bash(rm -f victim.txt␤×60npm test) for this session)');
    expect(t.out()).not.toContain('\n\n\n');
  });

  it('shows the call and waits: yes runs it', async () => {
    const main = writeModel();
    const t = terminal(['y', 'n']);
    await createCodeCommand({ model: () => main }).run(
      ['write files', '--workspace', workspace],
      t.io,
    );
    expect(t.out()).toContain('? write wants to change a.txt');
    expect(t.out()).toContain('Allow? [y]es / [n]o / [a]lways (adds Edit for this session)');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A');
    // The second write was declined: not written, and the model was told.
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
    expect(promptText(main.calls[2])).toContain('The user declined this write call');
    rmSync(join(workspace, 'a.txt'));
  });

  it('no refuses it with a tool error; always runs it and stops asking for edits', async () => {
    const declined = writeModel();
    const t1 = terminal(['no']);
    await createCodeCommand({ model: () => declined }).run(
      ['write', '--workspace', workspace],
      t1.io,
    );
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
    expect(promptText(declined.calls[1])).toContain('The user declined this write call');

    const always = writeModel();
    const t2 = terminal(['always']);
    await createCodeCommand({ model: () => always }).run(
      ['write', '--workspace', workspace],
      t2.io,
    );
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('B');
    expect(t2.out().match(/Allow\?/g)).toHaveLength(1);
    rmSync(join(workspace, 'a.txt'));
    rmSync(join(workspace, 'b.txt'));
  });

  it('without a terminal to ask, the run stops and says how to allow the call', async () => {
    const main = writeModel();
    const err: string[] = [];
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => err.push(text),
      env: { HOME: home },
      cwd: base,
      isTTY: false,
    };
    const code = await createCodeCommand({ model: () => main }).run(
      ['write', '--workspace', workspace],
      io,
    );
    expect(code).toBe(1);
    expect(err.join('')).toContain("--allow 'Edit'");
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
  });
});

describe('cohort code: a multi-turn session', () => {
  it('is interactive without a task: every turn sees the whole conversation, and the skill stays active', async () => {
    mkdirSync(join(workspace, 'skills', 'developer'), { recursive: true });
    writeFileSync(
      join(workspace, 'skills', 'developer', 'SKILL.md'),
      '---\nname: developer\ndescription: Implement features and fix bugs.\n---\nDEVELOPER-BODY\n',
    );
    const main = createScriptedModel((index) => ({ text: `answer ${index}` }), RECORDED);
    const t = terminal(['/developer add a parser', 'now add tests for it', '/exit']);
    const code = await createCodeCommand({ model: () => main }).run(
      ['--workspace', workspace],
      t.io,
    );
    expect(code).toBe(0);
    expect(main.calls).toHaveLength(2);
    const second = promptText(main.calls[1]);
    expect(second).toContain('add a parser');
    expect(second).toContain('answer 0');
    expect(second).toContain('now add tests for it');
    expect(second).toContain('DEVELOPER-BODY');
    rmSync(join(workspace, 'skills'), { recursive: true });
  });

  it('--session keeps the conversation in the store and continues it next time', async () => {
    const first = createScriptedModel(
      () => ({ text: 'the parser lives in src/parse.ts' }),
      RECORDED,
    );
    await createCodeCommand({ model: () => first }).run(
      ['where is the parser?', '--workspace', workspace, '--session', 's1'],
      terminal().io,
    );
    const second = createScriptedModel(() => ({ text: 'ok' }), RECORDED);
    await createCodeCommand({ model: () => second }).run(
      ['and what does it return?', '--workspace', workspace, '--session', 's1'],
      terminal().io,
    );
    const prompt = promptText(second.calls[0]);
    expect(prompt).toContain('where is the parser?');
    expect(prompt).toContain('the parser lives in src/parse.ts');
    expect(prompt).toContain('and what does it return?');
  });
});
