import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  approvalDigest,
  readApprovals,
  trustedByEnv,
  userApprovalsPath,
  withApprovalsLock,
  writeApprovals,
  type ApprovalsKind,
} from './user-approvals.js';
import {
  DEFAULT_CODE_MEMORY_MB,
  DEFAULT_DENY_READ,
  DEFAULT_MAX_MEMORY_MB,
  DEFAULT_MAX_DISK_MB,
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_PROCESSES,
} from './sandbox-settings.js';

type Env = Record<string, string | undefined>;

/**
 * The variable that applies the guarded settings of a folder's `cohort.config.json` without
 * approval (for CI, where nobody can approve). Unsafe in a folder whose configuration you did not
 * write.
 */
export const TRUST_PROJECT_CONFIG_ENV = 'COHORT_TRUST_PROJECT_CONFIG';

/** The file, under the user's configuration folder, that records approved project configurations. */
export const CONFIG_APPROVALS_FILE = join('cohort', 'approved-project-configs.json');

/** The command that approves a folder's guarded settings, as the notices name it. */
export const APPROVE_CONFIG_COMMAND = 'cohort config approve';

/**
 * The approvals file keeps, per folder, the digest of the guarded settings approved in each of its
 * files (`cohort.config.json`, `.claude/settings.json`, `.claude/settings.local.json`).
 */
const KIND: ApprovalsKind = {
  what: 'approved project configurations',
  key: 'file',
  command: APPROVE_CONFIG_COMMAND,
};

/** A value of the file and whether it widens what cohort lets run, reach or read. */
type Widens = (value: unknown, folder: string) => boolean;

const present: Widens = (value) => value !== undefined && value !== null && value !== '';
const notFalse: Widens = (value) => value !== undefined && value !== false;
const notTrue: Widens = (value) => value !== undefined && value !== true;
const nonEmpty: Widens = (value) =>
  value !== undefined &&
  !(Array.isArray(value) && value.length === 0) &&
  !(
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
const above =
  (limit: number): Widens =>
  (value) =>
    value !== undefined && !(typeof value === 'number' && value <= limit);
const otherThan =
  (...values: unknown[]): Widens =>
  (value) =>
    value !== undefined && !values.includes(value);
/** The real path of `path`, or of its deepest existing folder with the rest joined on. */
function realOrNearest(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    return join(realpathSync(existing), relative(existing, path));
  } catch {
    return path;
  }
}

/**
 * A path that leaves the folder: absolute, `~`, `..` past its top, or through a symbolic link
 * inside it that leads out (`data -> ~/.ssh`).
 */
const outside: Widens = (value, folder) => {
  if (value === undefined) return false;
  const paths = Array.isArray(value) ? value : [value];
  const top = realOrNearest(resolve(folder));
  return paths.some((path) => {
    if (typeof path !== 'string') return true;
    if (path.startsWith('~') || isAbsolute(path)) return true;
    const inner = relative(top, realOrNearest(resolve(folder, path)));
    return inner === '..' || inner.startsWith('../') || isAbsolute(inner);
  });
};
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

/**
 * The settings of a found `cohort.config.json` that a repository's author could use against the
 * person running cohort in it, with when a value does so. A value that only narrows (a deny rule,
 * `sandbox.enabled: true`, a lower limit, a denyRead list that keeps every default) is harmless
 * and applies without approval; so do routing, retrieval, model names, timeouts and the like.
 */
const GUARDED: ReadonlyArray<{ path: string; widens: Widens; why: string }> = [
  { path: 'sandbox.enabled', widens: notTrue, why: 'turns the sandbox off' },
  {
    path: 'sandbox.bwrapPath',
    widens: present,
    why: 'names a program cohort runs on your machine',
  },
  { path: 'sandbox.python', widens: present, why: 'names the interpreter code runs with' },
  {
    path: 'sandbox.denyRead',
    widens: (value) =>
      !Array.isArray(value)
        ? value !== undefined
        : DEFAULT_DENY_READ.some((entry) => !value.includes(entry)),
    why: 'lets commands read paths hidden by default (~/.ssh, .env, …)',
  },
  { path: 'sandbox.allowedHosts', widens: nonEmpty, why: 'gives commands network access' },
  { path: 'sandbox.allowPrivateAddresses', widens: notFalse, why: 'reaches private addresses' },
  { path: 'sandbox.maxProcesses', widens: above(DEFAULT_MAX_PROCESSES), why: 'raises a limit' },
  { path: 'sandbox.maxMemoryMb', widens: above(DEFAULT_MAX_MEMORY_MB), why: 'raises a limit' },
  { path: 'sandbox.maxDiskMb', widens: above(DEFAULT_MAX_DISK_MB), why: 'raises a limit' },
  { path: 'sandbox.maxFiles', widens: above(DEFAULT_MAX_FILES), why: 'raises a limit' },
  { path: 'sandbox.codeMemoryMb', widens: above(DEFAULT_CODE_MEMORY_MB), why: 'raises a limit' },
  { path: 'permissions.allow', widens: nonEmpty, why: 'lets tool calls run without asking' },
  {
    path: 'permissions.defaultMode',
    widens: otherThan('default', 'dontAsk'),
    why: 'lets tool calls run without asking',
  },
  { path: 'mcpServers', widens: nonEmpty, why: 'starts commands on your machine' },
  { path: 'tools.allowPrivateNetwork', widens: notFalse, why: 'lets web_fetch reach your network' },
  {
    path: 'tools.tavilyBaseUrl',
    widens: otherThan('https://api.tavily.com'),
    why: 'sends your Tavily key there',
  },
  {
    path: 'tools.arxivBaseUrl',
    widens: otherThan('https://export.arxiv.org/api/query'),
    why: 'sends searches there',
  },
  {
    path: 'tools.semanticScholarBaseUrl',
    widens: otherThan('https://api.semanticscholar.org/graph/v1'),
    why: 'sends your Semantic Scholar key there',
  },
  { path: 'model.baseUrl', widens: present, why: 'sends your model API key and prompts there' },
  { path: 'databaseUrl', widens: present, why: 'stores your runs and sessions there' },
  { path: 'dataDir', widens: outside, why: 'keeps the store outside the folder' },
  { path: 'sampleBook', widens: outside, why: 'reads a file outside the folder' },
  { path: 'agentDirs', widens: outside, why: 'reads agents outside the folder' },
  { path: 'telemetry.otlpEndpoint', widens: present, why: 'sends traces (prompts, answers) there' },
  {
    path: 'telemetry.otlpTracesEndpoint',
    widens: present,
    why: 'sends traces (prompts, answers) there',
  },
  { path: 'telemetry.otlpHeaders', widens: nonEmpty, why: 'sets headers of the trace export' },
  {
    path: 'server.host',
    widens: (value) => value !== undefined && !LOOPBACK_HOSTS.includes(String(value)),
    why: 'serves beyond this machine',
  },
  { path: 'server.corsOrigins', widens: nonEmpty, why: 'lets web pages call the server' },
  {
    // A project skill's SKILL.md frontmatter, read through the same approval.
    path: 'allowed-tools',
    widens: nonEmpty,
    why: 'these calls run without asking while the skill is active',
  },
  { path: 'server.allowedHosts', widens: nonEmpty, why: 'answers to other host names' },
];

/** The value at a dotted path of a parsed JSON object. */
function valueAt(settings: Record<string, unknown>, path: string): unknown {
  let value: unknown = settings;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** One guarded setting a configuration file sets, with its value and what it would do. */
export interface GuardedSetting {
  /** Dotted path: `sandbox.enabled`, `permissions.allow`. */
  path: string;
  value: unknown;
  why: string;
}

/**
 * The guarded settings a folder's configuration sets to a widening value (see {@link GUARDED}).
 *
 * @example
 * guardedSettings({ sandbox: { enabled: false }, routing: { threshold: 0.5 } }, '/repo');
 * // [{ path: 'sandbox.enabled', value: false, why: 'turns the sandbox off' }]
 */
export function guardedSettings(
  settings: Record<string, unknown>,
  folder: string,
): GuardedSetting[] {
  return GUARDED.flatMap(({ path, widens, why }) => {
    const value = valueAt(settings, path);
    return widens(value, folder) ? [{ path, value, why }] : [];
  });
}

/**
 * `settings` without the given dotted paths (copies; the input is left as it is).
 *
 * @example
 * withoutSettings({ sandbox: { enabled: false, maxProcesses: 64 } }, ['sandbox.enabled']);
 * // { sandbox: { maxProcesses: 64 } }
 */
export function withoutSettings(
  settings: Record<string, unknown>,
  paths: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const path of paths) {
    const keys = path.split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) {
      const inner = node[key];
      if (!inner || typeof inner !== 'object' || Array.isArray(inner)) break;
      node[key] = { ...(inner as Record<string, unknown>) };
      node = node[key] as Record<string, unknown>;
    }
    delete node[keys[keys.length - 1] as string];
  }
  return out;
}

/** The digest of a folder's guarded settings: changing any of them needs approval again. */
export function guardedSettingsDigest(guarded: readonly GuardedSetting[]): string {
  const picked = Object.fromEntries(guarded.map((setting) => [setting.path, setting.value]));
  return approvalDigest(picked);
}

/** Where a user's approved project configurations live (beside the approved MCP servers). */
export function configApprovalsPath(options: { env?: Env; home?: string } = {}): string {
  return userApprovalsPath(CONFIG_APPROVALS_FILE, options);
}

/** True when the environment trusts every folder's configuration (`COHORT_TRUST_PROJECT_CONFIG=1`). */
export function trustsProjectConfig(env: Env): boolean {
  return trustedByEnv(env, TRUST_PROJECT_CONFIG_ENV);
}

/**
 * A settings file found in a project folder (`cohort.config.json`, `.claude/settings.json`)
 * checked against the user's approval of its guarded settings.
 */
export interface ProjectConfigReview {
  /** The settings file. */
  configFile: string;
  /** The real path of the folder it is in: approvals are kept per folder. */
  project: string;
  /** The file's path inside the folder, under which its approval is kept. */
  key: string;
  /** The approvals file read (and written by {@link approveProjectConfig}). */
  file: string;
  /** True when `COHORT_TRUST_PROJECT_CONFIG` applies every folder's settings without approval. */
  trusted: boolean;
  /** The guarded settings the file sets (empty: nothing needs approval). */
  guarded: GuardedSetting[];
  digest: string;
  /** True when the guarded settings apply: none, trusted, or this exact set approved. */
  approved: boolean;
}

/**
 * Checks the guarded settings of a settings file found in the folder `cwd` (a `cohort.config.json`
 * the user did not name with `--config`, a `.claude/settings.json`) against the user's approval.
 * The approvals file is read only when there is something to check.
 *
 * @example
 * const review = reviewProjectConfig({ cwd, configFile, settings });
 * if (!review.approved) settings = withoutSettings(settings, review.guarded.map((s) => s.path));
 */
export function reviewProjectConfig(options: {
  cwd: string;
  configFile: string;
  settings: Record<string, unknown>;
  env?: Env;
  home?: string;
}): ProjectConfigReview {
  const env = options.env ?? process.env;
  const guarded = guardedSettings(options.settings, options.cwd);
  // A folder is approved by its real path: the same project reached through a link is one.
  const project = guarded.length > 0 ? realpathSync(options.cwd) : resolve(options.cwd);
  const file = configApprovalsPath({ env, ...(options.home ? { home: options.home } : {}) });
  const trusted = trustsProjectConfig(env);
  const digest = guardedSettingsDigest(guarded);
  const key = relative(resolve(options.cwd), resolve(options.configFile)).split(sep).join('/');
  const approvedHere = () => {
    const folder = readApprovals(file, KIND).projects[project] ?? {};
    return Object.hasOwn(folder, key) && folder[key] === digest;
  };
  const approved = guarded.length === 0 || trusted || approvedHere();
  return { configFile: options.configFile, project, key, file, trusted, guarded, digest, approved };
}

/**
 * Records the user's approval of a folder's guarded settings (their current values), in the
 * approvals file written whole through a temporary file, readable by the user alone.
 *
 * @example
 * approveProjectConfig(review);
 */
export function approveProjectConfig(review: ProjectConfigReview): void {
  withApprovalsLock(review.file, () => {
    const approvals = readApprovals(review.file, KIND);
    approvals.projects[review.project] = {
      ...(approvals.projects[review.project] ?? {}),
      [review.key]: review.digest,
    };
    writeApprovals(review.file, approvals);
  });
}

/**
 * What a run says of the guarded settings it left out: which, and exactly how to approve them.
 *
 * @example
 * unapprovedConfigMessage(review); // 'cohort ignored these settings of /repo/cohort.config.json …'
 */
export function unapprovedConfigMessage(review: ProjectConfigReview): string {
  const lines = review.guarded.map(
    (setting) => `  ${setting.path} = ${JSON.stringify(setting.value)} (${setting.why})`,
  );
  return [
    `cohort ignored these settings of ${review.configFile}: they are not approved for this folder, and a repository's configuration could use them against you:`,
    ...lines,
    `Review them and approve with \`${APPROVE_CONFIG_COMMAND}\` in ${review.project} (again after any change to them), or name the file yourself with --config. ${TRUST_PROJECT_CONFIG_ENV}=1 applies them without approval (for CI; unsafe in a folder you did not write).`,
    '',
  ].join('\n');
}
