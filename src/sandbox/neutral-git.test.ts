import { spawnSync } from 'node:child_process';
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
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { neutralGitEnv } from './neutral-git.js';

const hasGit = spawnSync('git', ['--version']).status === 0;
const cache = join(process.cwd(), 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@b',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@b',
};
const git = (cwd: string, ...args: string[]) => {
  const done = spawnSync('git', args, { cwd, encoding: 'utf8', env: gitEnv });
  if (done.status !== 0) throw new Error(done.stderr);
};

let workspace = '';
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/**
 * A workspace with a planted program that records its runs, and a repository in `folder` whose
 * a.txt is changed since its one commit (so `git diff` has a difference to show).
 */
function plantedRepository(folder = '.') {
  workspace = mkdtempSync(join(cache, 'cohort-neutral-git-'));
  const marker = join(workspace, 'ran.txt');
  const planted = join(workspace, 'planted.sh');
  writeFileSync(planted, `#!/bin/sh\necho "$*" >> ${marker}\ncat\n`, { mode: 0o755 });
  const repo = join(workspace, folder);
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', 'a.txt');
  git(repo, 'commit', '-qm', 'one');
  writeFileSync(join(repo, 'a.txt'), 'two\n');
  const ran = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');
  return { repo, planted, ran };
}

/** Runs `command` in the workspace as an unconfined command does, with HOME the workspace. */
async function runUnconfined(command: string) {
  const env = await neutralGitEnv(workspace);
  return spawnSync('/bin/sh', ['-c', command], {
    cwd: workspace,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace, ...env },
  });
}

/** A stand-in for git that answers `git config --list` after `seconds` with nothing. */
function slowGit(seconds: number): string {
  const path = join(workspace, 'slow-git.sh');
  writeFileSync(path, `#!/bin/sh\nexec sleep ${seconds}\n`, { mode: 0o755 });
  return path;
}

describe.skipIf(!hasGit)('neutralGitEnv', () => {
  it('neutralises the config of a .git that is a symbolic link to the repository', async () => {
    // git follows a symlinked .git; the search passed over it, so `git diff` ran diff.external.
    const { repo, planted, ran } = plantedRepository();
    git(repo, 'config', 'diff.external', `${planted} external`);
    renameSync(join(repo, '.git'), join(repo, 'elsewhere'));
    symlinkSync('elsewhere', join(repo, '.git'));
    await runUnconfined('git diff');
    expect(ran()).toBe('');
  });

  it('lets git use no bare repository it finds in the workspace (no .git to search for)', async () => {
    // A folder laid out as a bare repository (HEAD, objects, refs, config) is a repository git
    // discovers from inside it, and its config named programs the search never saw.
    const { planted, ran } = plantedRepository('work');
    renameSync(join(workspace, 'work', '.git'), join(workspace, 'bare'));
    git(workspace, 'config', '--file', 'bare/config', 'core.worktree', join(workspace, 'work'));
    git(workspace, 'config', '--file', 'bare/config', 'diff.external', `${planted} external`);
    await runUnconfined('cd bare && git diff');
    expect(ran()).toBe('');
  });

  it('refuses git when a repository config is too large to list, rather than neutralising none', async () => {
    // A listing past its output bound (spawnSync's 1 MiB then) "failed", and every
    // setting of that config ran as written.
    const { repo, planted, ran } = plantedRepository();
    git(repo, 'config', 'diff.external', `${planted} external`);
    const padding = Array.from(
      { length: 130_000 },
      (_, index) => `\tk${index} = ${'x'.repeat(30)}`,
    );
    writeFileSync(
      join(repo, '.git', 'config'),
      `${readFileSync(join(repo, '.git', 'config'), 'utf8')}[pad]\n${padding.join('\n')}\n`,
    );
    const run = await runUnconfined('git diff');
    expect(ran()).toBe('');
    expect(run.stderr).toContain('could not be listed');
  });

  it('empties an alias that gives git options (-c) as well as a ! alias', async () => {
    // `alias.d = -c diff.external=… diff` sets, as -c, what the neutral settings had emptied.
    const { repo, planted, ran } = plantedRepository();
    git(repo, 'config', 'alias.d', `-c diff.external=${planted} diff`);
    git(repo, 'config', 'alias.q', `"-c" diff.external=${planted} diff`);
    git(repo, 'config', 'alias.co', 'checkout');
    const run = await runUnconfined('git d; git q; git co -q -- a.txt && cat a.txt');
    expect(ran()).toBe('');
    expect(run.stdout).toContain('one\n');
  });

  it("neutralises a trailer's command (git interpret-trailers, git commit --trailer)", async () => {
    const { repo, planted, ran } = plantedRepository();
    git(repo, 'config', 'trailer.sign.key', 'Signed-off-by: ');
    git(repo, 'config', 'trailer.sign.cmd', `${planted} cmd`);
    git(repo, 'config', 'trailer.ack.command', `${planted} command`);
    await runUnconfined('printf "subject\\n\\nbody\\n" | git interpret-trailers --trailer sign=x');
    expect(ran()).toBe('');
  });

  it('lists the settings without blocking the event loop (a server answers meanwhile)', async () => {
    // spawnSync listed each repository's config: for up to 5 s per repository, before every
    // unconfined command, `cohort serve` answered no other request.
    plantedRepository();
    mkdirSync(join(workspace, 'b', '.git'), { recursive: true });
    const git = slowGit(0.6);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const started = Date.now();
    try {
      await neutralGitEnv(workspace, { gitPath: git });
    } finally {
      clearInterval(timer);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    // Two repositories listed at once, not one after the other.
    expect(Date.now() - started).toBeLessThan(1100);
    expect(ticks).toBeGreaterThan(10);
  });

  it('refuses git in a repository whose listing is too slow, naming it', async () => {
    const { repo } = plantedRepository('pkg');
    const env = await neutralGitEnv(workspace, { gitPath: slowGit(5), listTimeoutMs: 200 });
    const keys = Object.entries(env).filter(([name]) => name.startsWith('GIT_CONFIG_KEY_'));
    expect(keys.map(([, key]) => key)).toContain(
      `cohort: the git settings of ${repo} could not be listed, so git is refused here`,
    );
  });

  it("neutralises a submodule's config wherever it is (under node_modules, which the search skips)", async () => {
    // `git status` at the top runs `git status` in every populated submodule the index names,
    // with the submodule's own config: its clean filter ran, as the search never entered
    // node_modules to find that repository.
    const { repo, planted, ran } = plantedRepository('sub');
    git(repo, 'checkout', '-q', '--', 'a.txt');
    const top = join(workspace, 'top');
    mkdirSync(top);
    git(top, 'init', '-q');
    git(top, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', repo, 'node_modules/x');
    git(top, 'commit', '-qm', 'sub');
    const submodule = join(top, 'node_modules', 'x');
    git(submodule, 'config', 'filter.mark.clean', `${planted} clean`);
    writeFileSync(join(submodule, '.gitattributes'), '*.txt filter=mark\n');
    // Of the same size as the committed text, so git reads it through the filter to compare.
    writeFileSync(join(submodule, 'a.txt'), 'six\n');
    rmSync(join(workspace, 'sub'), { recursive: true });
    const run = await runUnconfined('cd top && git status --short && git diff');
    expect(run.stdout).toContain('node_modules/x');
    expect(ran()).toBe('');
  });

  it('neutralises the config of a repository in a package of node_modules', async () => {
    // The search does not enter node_modules: `cd node_modules/y && git diff` ran its diff.external.
    const { repo, planted, ran } = plantedRepository(join('node_modules', 'y'));
    git(repo, 'config', 'diff.external', `${planted} external`);
    await runUnconfined('cd node_modules/y && git diff');
    expect(ran()).toBe('');
  });
});
