import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  approvalDigest,
  readApprovals,
  trustedByEnv,
  userApprovalsPath,
  withApprovalsLock,
  writeApprovals,
  type ApprovalsKind,
} from './user-approvals.js';

type Env = Record<string, string | undefined>;

/**
 * The variable that starts every project `.mcp.json` server without approval (for CI, where
 * nobody can approve). Unsafe in a folder whose `.mcp.json` you did not write.
 */
export const TRUST_PROJECT_MCP_ENV = 'COHORT_TRUST_PROJECT_MCP';

/** The file, under the user's configuration folder, that records approved project MCP servers. */
export const MCP_APPROVALS_FILE = join('cohort', 'approved-mcp-servers.json');

const KIND: ApprovalsKind = {
  what: 'approved MCP servers',
  key: 'server',
  command: 'cohort mcp approve',
};

/** Where the approvals of a user live: `$XDG_CONFIG_HOME/cohort/…`, else `~/.config/cohort/…`. */
export function mcpApprovalsPath(options: { env?: Env; home?: string } = {}): string {
  return userApprovalsPath(MCP_APPROVALS_FILE, options);
}

/** True when the environment trusts every project MCP server (`COHORT_TRUST_PROJECT_MCP=1`). */
export function trustsProjectMcp(env: Env): boolean {
  return trustedByEnv(env, TRUST_PROJECT_MCP_ENV);
}

/** A server definition's fields, as `.mcp.json` writes them (none when it is not an object). */
function fieldsOf(definition: unknown): Record<string, unknown> {
  return (definition && typeof definition === 'object' ? definition : {}) as Record<
    string,
    unknown
  >;
}

/**
 * The digest of a server's definition as `.mcp.json` writes it (before `${VAR}` is read: the
 * environment is the user's, the file the project's): what it starts or reaches (`command`,
 * `args`, `env` keys and values, `cwd`, `url`, `headers`, `type`). Changing any of them needs a new
 * approval; an absent `args` and `[]` are the same.
 *
 * @example
 * mcpServerDigest({ command: 'npx', args: ['-y', 'server'] }); // 'sha256:…'
 */
export function mcpServerDigest(definition: unknown): string {
  const entry = fieldsOf(definition);
  const fields = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const;
  const defaults: Record<string, unknown> = { args: [], env: {}, headers: {} };
  const picked = Object.fromEntries(
    fields
      .map((field) => [field, entry[field] ?? defaults[field]] as const)
      .filter(([, value]) => value !== undefined),
  );
  return approvalDigest(picked);
}

/** The command line (or URL) a server definition starts, as `.mcp.json` writes it, for a person. */
export function mcpServerCommandLine(definition: unknown): string {
  const entry = fieldsOf(definition);
  if (typeof entry.url === 'string') return entry.url;
  const quote = (word: string) => (/^[\w./:=@%+-]+$/.test(word) ? word : JSON.stringify(word));
  const env = Object.entries((entry.env ?? {}) as Record<string, unknown>).map(
    ([key, value]) => `${key}=${quote(String(value))}`,
  );
  const args = Array.isArray(entry.args) ? entry.args.map((arg) => quote(String(arg))) : [];
  const cwd = typeof entry.cwd === 'string' ? ` (in ${entry.cwd})` : '';
  return [...env, quote(String(entry.command ?? '')), ...args].join(' ') + cwd;
}

/** One server of the project's `.mcp.json` and whether the user approved this definition of it. */
export interface ProjectMcpServer {
  name: string;
  /** The definition as `.mcp.json` writes it (`${VAR}` not read). */
  definition: unknown;
  digest: string;
  approved: boolean;
}

/** The project servers of a folder, checked against the user's approvals. */
export interface ProjectMcpReview {
  /** The real path of the project folder: approvals are kept per folder. */
  project: string;
  /** The approvals file read (and written by `approveProjectMcpServers`). */
  file: string;
  /** True when `COHORT_TRUST_PROJECT_MCP` starts every project server without approval. */
  trusted: boolean;
  servers: ProjectMcpServer[];
}

/**
 * Checks the servers of a project's `.mcp.json` (those `cohort.config.json` does not redefine)
 * against the user's approvals. The approvals file is read only when there is a server to check.
 *
 * @example
 * const review = reviewProjectMcpServers({ cwd, servers: { calc: { command: 'node' } } });
 * review.servers.filter((server) => !server.approved); // the servers cohort does not start
 */
export function reviewProjectMcpServers(options: {
  cwd: string;
  servers: Record<string, unknown>;
  env?: Env;
  home?: string;
}): ProjectMcpReview {
  const env = options.env ?? process.env;
  const names = Object.keys(options.servers);
  // A folder is approved by its real path: the same project reached through a link is one.
  const project = names.length > 0 ? realpathSync(options.cwd) : resolve(options.cwd);
  const file = mcpApprovalsPath({ env, ...(options.home ? { home: options.home } : {}) });
  const trusted = trustsProjectMcp(env);
  const approved =
    names.length === 0 || trusted ? {} : (readApprovals(file, KIND).projects[project] ?? {});
  return {
    project,
    file,
    trusted,
    servers: names.map((name) => {
      const definition = options.servers[name];
      const digest = mcpServerDigest(definition);
      const granted = Object.hasOwn(approved, name) ? approved[name] : undefined;
      return { name, definition, digest, approved: trusted || granted === digest };
    }),
  };
}

/**
 * Records the user's approval of these project servers (their current definitions) in the
 * approvals file, written whole through a temporary file, readable by the user alone.
 *
 * @example
 * approveProjectMcpServers(review, ['calc']);
 */
export function approveProjectMcpServers(review: ProjectMcpReview, names: string[]): void {
  withApprovalsLock(review.file, () => {
    const approvals = readApprovals(review.file, KIND);
    const project = { ...(approvals.projects[review.project] ?? {}) };
    for (const name of names) {
      const server = review.servers.find((candidate) => candidate.name === name);
      if (server) project[name] = server.digest;
    }
    approvals.projects[review.project] = project;
    writeApprovals(review.file, approvals);
  });
}
