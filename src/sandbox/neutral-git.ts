import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { packageGitEntries, searchNames } from './deny-paths.js';
import { nodeChildProcess } from '../builtins/index.js';

/**
 * git settings every unconfined command runs with whatever the workspace's config says: no hooks,
 * no `core.fsmonitor`, no `ext::` transport (a URL rewrite to it runs a command), no bare
 * repository git finds by itself (a folder laid out as one has no `.git` for the search below to
 * find, and git would run what its config names; `--git-dir` still reaches one). `HOME` is the
 * workspace for such a command (see `scrubbedEnv`), so the "global" `~/.gitconfig` git would read
 * is the workspace's own file; `GIT_CONFIG_GLOBAL=/dev/null` reads none.
 */
const FIXED_SETTINGS: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['protocol.ext.allow', 'never'],
  ['safe.bareRepository', 'explicit'],
];

/**
 * The settings of a repository's config that name a program git runs, each with the value that
 * runs none: an identity for a text conversion (`cat`), the stock program where one is needed,
 * else empty, which git reads as no filter or helper, or refuses to run ("cannot run :"), failing
 * the command instead of running what the config named (`git diff --no-ext-diff` still works).
 */
const COMMAND_SETTINGS: readonly (readonly [RegExp, string])[] = [
  [/^filter\..+\.(clean|smudge|process)$/, ''],
  [/^diff\..+\.textconv$/, 'cat'],
  [/^diff\..+\.command$/, ''],
  [/^diff\.external$/, ''],
  [/^merge\..+\.driver$/, ''],
  [/^credential\.(.+\.)?helper$/, ''],
  [/^core\.(pager|editor)$/, 'cat'],
  [/^pager\..+$/, 'false'],
  [/^sequence\.editor$/, 'cat'],
  [/^interactive\.difffilter$/, 'cat'],
  [/^core\.sshcommand$/, 'ssh'],
  [/^core\.(askpass|gitproxy|alternaterefscommand)$/, ''],
  [/^gpg\.program$/, 'gpg'],
  [/^gpg\.openpgp\.program$/, 'gpg'],
  [/^gpg\.x509\.program$/, 'gpgsm'],
  [/^gpg\.ssh\.program$/, 'ssh-keygen'],
  [/^gpg\.ssh\.defaultkeycommand$/, ''],
  [/^submodule\..+\.update$/, 'checkout'],
  [/^remote\..+\.uploadpack$/, 'git-upload-pack'],
  [/^remote\..+\.receivepack$/, 'git-receive-pack'],
  [/^(difftool|mergetool|browser|man)\..+\.(cmd|path)$/, ''],
  [/^web\.browser$/, ''],
  [/^sendemail\.(.+\.)?(smtpserver|tocmd|cccmd|headercmd|sendmailcmd)$/, ''],
  [/^trailer\..+\.(cmd|command)$/, ''],
  [/^imap\.tunnel$/, ''],
];

/**
 * An alias that runs a program (`!command`) or gives git options before its command (`-c
 * diff.external=… diff`, which sets as `-c` what the settings here emptied); quotes may come
 * first, as git splits an alias as a shell would.
 */
const RISKY_ALIAS = /^\s*["'\\]*[!-]/;

/** How long listing one repository's settings may take before it is given up. */
const LIST_TIMEOUT_MS = 5000;
/** The most output listing one repository's settings may give before it is given up. */
const LIST_MAX_BYTES = 4 * 1024 * 1024;
/** Repositories whose settings are listed at once (each listing is a git process). */
const LIST_CONCURRENCY = 4;
/**
 * The most repositories (the workspace's and their submodules) whose settings are listed; past
 * it, git is refused rather than run with settings nobody read.
 */
const MAX_REPOSITORIES = 1000;
/** git's mode of a submodule's entry in an index (a gitlink). */
const GITLINK = '160000 ';

/** Options of {@link neutralGitEnv}. */
export interface NeutralGitOptions {
  /** The git that lists the settings (tests). */
  gitPath?: string;
  /** How long one listing may take (tests; default {@link LIST_TIMEOUT_MS}). */
  listTimeoutMs?: number;
}

/**
 * git's environment form of `-c` (which wins over every config file) for an unconfined command
 * in `root`: the fixed settings above, and every setting of the workspace's repositories (the
 * top one and those of subfolders, found by the deny list's bounded search; with their included
 * files and worktree configs) that names a program, set to run none. Without the sandbox a
 * workspace's `.git` (from an archive, a clone, or written by an earlier command) runs on the
 * host, and a `git status` or `git diff` the permission rules let through would run what its
 * config names (a clean filter, a textconv, a pager, an alias, a credential helper). The
 * submodules each repository's index names are listed too, wherever they are (`node_modules/x`,
 * past the search's bound): `git status` and `git diff` run git in each populated one, with its
 * own config, and `diff.ignoreSubmodules` is no boundary (a `.gitmodules` entry's `ignore = none`
 * wins over it). Read at each
 * command's start: a setting a command adds is neutral from the next command on. The listings run
 * as child processes, a few at a time, so a slow one holds up this command only, not the server.
 *
 * @example
 * spawn('/bin/sh', ['-c', 'git status'], { env: { ...env, ...(await neutralGitEnv('/repo')) } });
 */
export async function neutralGitEnv(
  root: string,
  options: NeutralGitOptions = {},
): Promise<Record<string, string>> {
  const gitPath = options.gitPath ?? 'git';
  const timeoutMs = options.listTimeoutMs ?? LIST_TIMEOUT_MS;
  const worktrees = await repositoriesIn(root);
  const seen = new Set(worktrees);
  const listings: ([string, string][] | undefined)[] = [];
  let tooMany = false;
  // In rounds: the submodules a round finds are the next round's repositories.
  for (let from = 0; from < worktrees.length;) {
    const round = worktrees.slice(from);
    from = worktrees.length;
    const listed = await mapBounded(round, LIST_CONCURRENCY, async (worktree) => {
      const [settings, submodules] = await Promise.all([
        repositorySettings(worktree, gitPath, timeoutMs),
        submodulesOf(worktree, gitPath, timeoutMs),
      ]);
      // A repository whose submodules are unknown may have any: refused as an unlisted config.
      return { settings: submodules ? settings : undefined, submodules: submodules ?? [] };
    });
    for (const { settings, submodules } of listed) {
      listings.push(settings);
      for (const submodule of submodules) {
        if (seen.has(submodule) || !isRepositoryEntry(submodule)) continue;
        if (seen.size >= MAX_REPOSITORIES) {
          tooMany = true;
          break;
        }
        seen.add(submodule);
        worktrees.push(submodule);
      }
    }
  }
  const settings = new Map<string, string>(FIXED_SETTINGS);
  const unlisted: string[] = [];
  for (const [index, worktree] of worktrees.entries()) {
    const listed = listings[index];
    if (!listed) {
      unlisted.push(worktree);
      continue;
    }
    for (const [key, value] of listed) {
      if (settings.has(key)) continue;
      const name = key.toLowerCase();
      // `co = checkout` stays.
      if (name.startsWith('alias.')) {
        if (RISKY_ALIAS.test(value)) settings.set(key, '');
        continue;
      }
      const neutral = COMMAND_SETTINGS.find(([pattern]) => pattern.test(name));
      if (neutral) settings.set(key, neutral[1]);
    }
  }
  // A config too large or slow to list may name any program: a key git cannot parse makes every
  // git command of this command fail, saying why, instead of running what that config names.
  for (const worktree of unlisted)
    settings.set(
      `cohort: the git settings of ${worktree} could not be listed, so git is refused here`,
      '',
    );
  if (tooMany)
    settings.set(
      `cohort: the workspace has more than ${MAX_REPOSITORIES} repositories and submodules, so git is refused here`,
      '',
    );
  const env: Record<string, string> = {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(settings.size),
  };
  [...settings].forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * The folders of `root` with a `.git` (a folder, or a file naming the repository, or a symbolic
 * link to either, which git follows), and the packages of the `node_modules` folders the search
 * passes over that have one.
 */
async function repositoriesIn(root: string): Promise<string[]> {
  const search = searchNames(root, new Set(['.git']));
  const found = [...search.matches];
  for (const folder of search.nodeModules) found.push(...(await packageGitEntries(folder)));
  const folders = found.map((path) => dirname(path));
  try {
    statSync(resolve(root, '.git'));
    if (!folders.includes(root)) folders.unshift(root);
  } catch {
    // no repository at the top
  }
  return folders.filter(isRepositoryEntry);
}

/** True when `folder/.git` is (or links to) a folder or a small file (`gitdir: …`). */
function isRepositoryEntry(folder: string): boolean {
  try {
    const entry = statSync(resolve(folder, '.git'));
    if (entry.isDirectory()) return true;
    if (!entry.isFile()) return false;
    const fd = openSync(resolve(folder, '.git'), 'r');
    try {
      const head = Buffer.alloc(8);
      return head.subarray(0, readSync(fd, head, 0, 8, 0)).toString() === 'gitdir: ';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** `work` over `items`, at most `limit` at once, the results in the items' order. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The settings a repository's own config files give (the local config, its worktree config and
 * what they include; not the system's or the user's), as git reads them: reading config runs no
 * program. None when git is missing or refuses the repository (as it then refuses the command);
 * undefined when the listing was given up (too slow, too much output), as nothing is known.
 */
async function repositorySettings(
  worktree: string,
  gitPath: string,
  timeoutMs: number,
): Promise<[string, string][] | undefined> {
  const records = await listRecords(worktree, gitPath, ['config', '--list', '--includes', '-z'], {
    timeoutMs,
    keep: () => true,
  });
  // `-z`: each setting is its name, a newline and its value (no newline for a bare `key`).
  return records?.map((entry) => {
    const at = entry.indexOf('\n');
    return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
  });
}

/**
 * The folders of the submodules `worktree`'s index names (its gitlinks), populated or not: none
 * when git is missing or refuses the repository; undefined when the listing was given up. Read
 * with no hook and no `core.fsmonitor` (reading an index may run the latter).
 */
async function submodulesOf(
  worktree: string,
  gitPath: string,
  timeoutMs: number,
): Promise<string[] | undefined> {
  const records = await listRecords(worktree, gitPath, ['ls-files', '--stage', '-z'], {
    timeoutMs,
    keep: (record) => record.startsWith(GITLINK),
    env: Object.fromEntries(
      FIXED_SETTINGS.flatMap(([key, value], index) => [
        [`GIT_CONFIG_KEY_${index}`, key],
        [`GIT_CONFIG_VALUE_${index}`, value],
      ]).concat([['GIT_CONFIG_COUNT', String(FIXED_SETTINGS.length)]]),
    ),
  });
  // `<mode> <object> <stage>\t<path>`, the path relative to `worktree`.
  return records?.map((record) => resolve(worktree, record.slice(record.indexOf('\t') + 1)));
}

/**
 * The NUL-separated records git prints for `args` in `worktree`'s repository that `keep` keeps,
 * read as they come (an index of a million files is not held whole). None when git is missing
 * or fails (refuses the repository); undefined when given up: past `timeoutMs`, or when the kept
 * records pass {@link LIST_MAX_BYTES}. Given up, git is killed and not waited for.
 */
function listRecords(
  worktree: string,
  gitPath: string,
  args: readonly string[],
  options: { timeoutMs: number; keep: (record: string) => boolean; env?: Record<string, string> },
): Promise<string[] | undefined> {
  return new Promise((done) => {
    let settled = false;
    const settle = (value: string[] | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(value);
    };
    const child = nodeChildProcess().spawn(gitPath, args, {
      cwd: worktree,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_DIR: resolve(worktree, '.git'),
        ...options.env,
      },
    });
    const giveUp = () => {
      child.kill('SIGKILL');
      settle(undefined);
    };
    const timer = setTimeout(giveUp, options.timeoutMs);
    const records: string[] = [];
    let kept = 0;
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\0');
      partial = parts.pop() as string;
      // A record that never ends counts too: output without a NUL is not read without bound.
      if (partial.length > LIST_MAX_BYTES) return giveUp();
      for (const record of parts) {
        if (!record || !options.keep(record)) continue;
        kept += record.length;
        if (kept > LIST_MAX_BYTES) return giveUp();
        records.push(record);
      }
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle(error.code === 'ENOENT' ? [] : undefined),
    );
    child.on('close', (status, signal) => {
      if (signal) return settle(undefined);
      if (status !== 0) return settle([]);
      if (partial && options.keep(partial)) records.push(partial);
      settle(records);
    });
  });
}
