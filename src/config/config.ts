import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { jsonKind, McpServers } from '../schema/index.js';
import { MAX_TIMER_MS } from '../bounded-call/index.js';
import { CohortError, fromZodError, formatNumber, issueWording } from '../errors/index.js';
import { MAX_RESEARCH_TASKS } from '../schema/index.js';
import { LogLevel, TracingSettings } from '../telemetry/index.js';
import { configFromEnv, envVariableFor } from './env-settings.js';
import { isPresent, MAX_FOUND_FILE_BYTES, readFoundFile, readNamedFile } from './found-file.js';
import { undecodedPathProblem } from './folder-entries.js';
import { parseJsonFile } from './json-file.js';
import { sourceUrlProblem } from './source-url-template.js';
import { PermissionSettings } from './permission-settings.js';
import { SandboxSettings } from './sandbox-settings.js';
import { findUnknownSetting } from './unknown-setting.js';
import { reviewProjectMcpServers, type ProjectMcpReview } from './mcp-approvals.js';
import {
  reviewProjectConfig,
  withoutSettings,
  type ProjectConfigReview,
} from './project-config-approvals.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** Default data folder of the embedded store. */
export const DEFAULT_DATA_DIR = '.cohort';
/**
 * Runs a `memory://` store keeps when `keepRuns` is not set: every answer records a run and about
 * four spans (kept in the process, about 1.6 KB per extractive `/chat` answer; see the store's
 * `MemoryTraces`), and nothing else ever empties an in-memory store.
 */
export const DEFAULT_MEMORY_KEEP_RUNS = 1000;
/**
 * Sessions a `memory://` store keeps when `keepSessions` is not set: a long-lived `cohort serve`
 * on `memory://` would otherwise keep every chat session's messages until it stops.
 */
export const DEFAULT_MEMORY_KEEP_SESSIONS = 1000;
/** Default keyword-routing threshold (book-subagents-research.md R2). */
export const DEFAULT_ROUTING_THRESHOLD = 0.7;
/** Default share of a question's subject the book must cover for a specialist to take it. */
export const DEFAULT_MIN_GROUNDING = 0.3;
/** Default chat model (rag-agent-research.md §5). */
export const DEFAULT_MODEL = 'gpt-4o-mini';
/** Default config file name, looked up in the working directory. */
export const CONFIG_FILE = 'cohort.config.json';

/**
 * Longest duration setting, in seconds (2,147,483 s, about 24.8 days): the longest wait a timer can
 * hold ({@link MAX_TIMER_MS}). A larger value meant as "no limit" fired after 1 ms instead.
 */
export const MAX_DURATION_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** A duration setting in seconds with its default. */
const seconds = (value: number) =>
  z
    .number()
    .positive()
    .max(
      MAX_DURATION_SECONDS,
      `must be at most ${formatNumber(MAX_DURATION_SECONDS)} seconds (about 24.8 days, the longest wait a timer can hold)`,
    )
    .default(value);

/** True when `text` parses as a URL with one of `schemes` (such as `https:`). */
const hasScheme = (text: string, schemes: readonly string[]) => {
  try {
    return schemes.includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/**
 * An http(s) endpoint, checked when the configuration is read: a typo (`localhost:11434/v1`)
 * otherwise surfaced only after every retry of the first model call, as "Invalid URL". Empty
 * means unset, as for every variable (`OPENAI_BASE_URL=` turns the model off). The message
 * leaves the name to the loader: the setting's, or the variable's when one gave the value.
 */
const httpUrl = (example: string) =>
  z.string().refine((text) => text === '' || hasScheme(text, ['http:', 'https:']), {
    message: `must be an http or https URL, such as ${example}`,
  });

/**
 * One CORS origin: `*` or scheme, host and optional port, as the browser's `Origin` header has it.
 * A path or a bare host name would never equal an `Origin` header, so CORS would silently stay
 * shut for that site.
 */
const corsOrigin = lazySchema(() =>
  z.string().refine(
    (text) => {
      if (text === '*') return true;
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
      } catch {
        return false;
      }
    },
    {
      message:
        'takes "*" or origins such as https://app.example.org (scheme, host and port, no path or trailing slash)',
    },
  ),
);

/**
 * One name the server may be reached by, beside the loopback names (`server.allowedHosts`): `*`
 * (any), a host name or an IP address as a `Host` header carries it, without scheme, port or
 * path. Kept in lower case, as host names compare.
 */
const allowedHost = lazySchema(() =>
  z
    .string()
    .regex(
      /^(\*|[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])$/i,
      'takes "*" or host names as a Host header has them, such as cohort.example.org, 192.168.1.20 or [fe80::1] (no scheme, port or path)',
    )
    .transform((text) => text.toLowerCase()),
);

/** The whole configuration. Every default is named here once. */
export const CohortConfig = lazySchema(() =>
  z.object({
    /**
     * Embedded store folder (PGlite), or `memory://` for a store in memory. Ignored when
     * `databaseUrl` is set. A URL is refused: `--data-dir postgres://…` made a folder `postgres:`.
     */
    dataDir: z
      .string()
      // An empty variable is unset (env-settings.ts) and `--data-dir ""` is refused with the flag:
      // '' comes from a file, where the store then blamed a --data-dir the user never gave.
      .refine((text) => text !== '', {
        message: 'is empty: name a folder, or leave it unset for .cohort',
      })
      // ' ' made a folder named ' ', a pasted line break one named 'a\nb': no folder anyone means.
      .refine((text) => text === '' || text.trim() !== '', {
        message: 'is blank: name a folder, or leave it unset for .cohort',
      })
      // eslint-disable-next-line no-control-regex
      .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), {
        message: 'holds a control character (a line break, a tab): name the folder without it',
      })
      .refine((text) => text.startsWith('memory://') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(text), {
        message:
          'is a folder (or memory:// for a store in memory), not a URL: to use PostgreSQL, set DATABASE_URL (databaseUrl) to its URL instead',
      })
      .default(DEFAULT_DATA_DIR),
    /** PostgreSQL connection string; when set, the PostgreSQL engine is used. */
    databaseUrl: z
      .string()
      .refine((text) => text === '' || hasScheme(text, ['postgres:', 'postgresql:']), {
        message: 'must be a PostgreSQL URL, such as postgres://user:password@localhost:5432/cohort',
      })
      .optional(),
    /**
     * How many of the most recent finished runs (answers, research and coding runs, with their spans
     * and tasks) the store keeps; older ones are deleted in batches as traces are written. Unset: a
     * `memory://` store keeps {@link DEFAULT_MEMORY_KEEP_RUNS}, a folder or PostgreSQL keeps all.
     * Coding conversations and runs still waiting or interrupted are never deleted.
     */
    keepRuns: z.number().int().positive().optional(),
    /**
     * How many of the most recently active sessions (by their last message) the store keeps, each
     * with its last 100 messages (the model reads the last 10); older sessions and messages are
     * deleted in batches as turns are saved. Unset: a `memory://` store keeps
     * {@link DEFAULT_MEMORY_KEEP_SESSIONS}, a folder or PostgreSQL keeps every session whole.
     */
    keepSessions: z.number().int().positive().optional(),
    /** Folders of agent markdown files; the built-in book agents are used when empty. */
    agentDirs: z.array(z.string()).default([]),
    /** The book ingested on first use when the store is empty. */
    sampleBook: z.string().optional(),
    /**
     * Where the book is published, as a template: `https://book.example.org/{path}`. Citations, the
     * Sources footer and the web page then link each passage's page (path without `.md`, `index`
     * dropped; a document's frontmatter `slug` or `url` overrides); without it they show paths.
     */
    sourceUrl: z
      .string()
      .trim()
      .superRefine((value, context) => {
        const problem = sourceUrlProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    logLevel: LogLevel.default('warn'),
    routing: z
      .object({
        /**
         * The rollout switch of book-subagents-research.md R7: when false the router is bypassed and
         * every question goes to the default (fallback) agent, for gradual roll-out and for comparing
         * answers with and without routing.
         */
        enabled: z.boolean().default(true),
        threshold: z.number().min(0).max(1).default(DEFAULT_ROUTING_THRESHOLD),
        /**
         * Below this share of a question's subject found in the book, the question is about
         * something the book does not cover and goes to the fallback agent.
         */
        minGrounding: z.number().min(0).max(1).default(DEFAULT_MIN_GROUNDING),
        /**
         * Whether the routing arbiter (docs/routing.md#the-arbiter), fitted on labelled questions,
         * reviews each rule decision. It applies only to the book's five agents.
         */
        arbiter: z.boolean().default(true),
        /**
         * How a multi-domain question's agents run (book-subagents-research.md R5): one after another,
         * or all at once (the spec's "parallel multi-domain" enhancement: faster, more load at once).
         */
        multiDomain: z.enum(['sequential', 'parallel']).default('sequential'),
      })
      .prefault({}),
    retrieval: z
      .object({
        limit: z.number().int().min(1).max(50).default(5),
        /**
         * Below this normalised score a passage counts as not relevant. 0.1, not 0.2: a paraphrase
         * in the reader's own words often reaches only 0.1–0.2 of a full match on the section that
         * answers it (a fifth of the tuning paraphrases), while questions about things the book does
         * not cover score 0 or above 0.2 (the router, not this floor, turns those away).
         */
        minScore: z.number().min(0).max(1).default(0.1),
        timeoutSeconds: seconds(30),
      })
      .prefault({}),
    model: z
      .object({
        apiKey: z.string().optional(),
        baseUrl: httpUrl('http://localhost:11434/v1').optional(),
        /** The `full` tier's model id unless `tiers.full` says otherwise. */
        name: z.string().default(DEFAULT_MODEL),
        tiers: z.object({ fast: z.string().optional(), full: z.string().optional() }).prefault({}),
        embeddingModel: z.string().optional(),
        timeoutSeconds: seconds(120),
        maxRetries: z.number().int().min(0).max(10).default(2),
        maxSteps: z.number().int().min(1).max(50).default(6),
        temperature: z.number().min(0).max(2).optional(),
      })
      .prefault({}),
    server: z
      .object({
        port: z.number().int().min(0).max(65535).default(8787),
        host: z.string().default('127.0.0.1'),
        apiKey: z.string().optional(),
        /** Origins allowed by CORS: `*`, or origins as a browser sends them (`https://app.example.org`). */
        corsOrigins: z.array(corsOrigin).default([]),
        /**
         * Names the server may be reached by when it listens on a loopback address, besides
         * localhost, 127.0.0.1 and [::1]: a request with another `Host` is refused (DNS rebinding).
         * `*` takes any.
         */
        allowedHosts: z.array(allowedHost).default([]),
        bodyLimitBytes: z
          .number()
          .int()
          .positive()
          .default(64 * 1024),
        rateLimitPerMinute: z.number().int().min(0).default(0),
      })
      .prefault({}),
    subagents: z
      .object({
        summaryMaxTokens: z.number().int().positive().default(2000),
        maxDepth: z.number().int().min(0).default(1),
        maxTurns: z.number().int().positive().default(12),
        maxTokens: z.number().int().positive().default(200_000),
        timeoutSeconds: seconds(300),
      })
      .prefault({}),
    tools: z
      .object({
        tavilyApiKey: z.string().optional(),
        tavilyBaseUrl: httpUrl('https://api.tavily.com').default('https://api.tavily.com'),
        arxivBaseUrl: httpUrl('https://export.arxiv.org/api/query').default(
          'https://export.arxiv.org/api/query',
        ),
        /** research-subagent.md §5: Semantic Scholar runs only when switched on and given a key. */
        useSemanticScholar: z.boolean().default(false),
        semanticScholarApiKey: z.string().optional(),
        semanticScholarBaseUrl: z.string().default('https://api.semanticscholar.org/graph/v1'),
        allowPrivateNetwork: z.boolean().default(false),
        bashTimeoutSeconds: seconds(60),
        /**
         * Time limit of any one tool call of the coding assistant and its subagents (a backstop
         * above the tools' own limits: bash's, a subagent's, a web request's, an MCP call's): a call
         * still running then is stopped (a command is killed with every process it started) and the
         * model reads why. Approval waits are not counted.
         */
        callTimeoutSeconds: seconds(600),
        /**
         * Time limit of one coding run (a request to the coding assistant, up to its answer or a
         * pause for approval): then what is running is stopped and the run ends (finish reason
         * `budget`, saying so). Without it a model that kept calling slow tools held a run for up
         * to model.maxSteps times callTimeoutSeconds (hours).
         */
        runTimeoutSeconds: seconds(3600),
        maxOutputChars: z.number().int().positive().default(30_000),
      })
      .prefault({}),
    research: z
      .object({
        timeoutRetrieval: seconds(30),
        timeoutWebSearch: seconds(60),
        timeoutSubagent: seconds(300),
        timeoutPythonRepl: seconds(30),
        timeoutLlmCall: seconds(120),
        maxRetries: z.number().int().min(0).default(2),
        concurrency: z.number().int().min(1).default(4),
        maxTasks: z.number().int().min(1).max(MAX_RESEARCH_TASKS).default(5),
        /**
         * How long a web or paper search's results are reused for the same query, in seconds
         * (research-subagent.md, "Caching Layer"); 0 searches every time.
         */
        searchCacheSeconds: z
          .number()
          .min(0)
          .max(
            MAX_DURATION_SECONDS,
            `must be at most ${formatNumber(MAX_DURATION_SECONDS)} seconds`,
          )
          .default(600),
      })
      .prefault({}),
    /** How bash and code runs are confined (bubblewrap). */
    sandbox: SandboxSettings,
    /** Which tool calls run, ask first or are refused (Claude Code's rule shape). */
    permissions: PermissionSettings,
    /**
     * MCP servers whose tools cohort's model-backed agents may use (`command`/`args`/`env` or
     * `url`/`headers`, as in Claude Code's `.mcp.json`, which is read too).
     */
    mcpServers: McpServers.default({}),
    /** OpenTelemetry export (OTLP/HTTP); off unless an endpoint is set. */
    telemetry: TracingSettings.prefault({}),
  }),
);
export type CohortConfig = z.infer<typeof CohortConfig>;
export type CohortConfigInput = z.input<typeof CohortConfig>;

type Env = Record<string, string | undefined>;

/** Where the settings of a configuration came from besides the defaults. */
interface SettingSources {
  env: Env;
  overrides: Record<string, unknown>;
  /** The configuration file's settings, and the file as the user knows it. */
  file: { settings: Record<string, unknown>; shown: string };
  /** The project `.mcp.json`'s servers that the file does not name, and that file as shown. */
  mcp: { servers: Record<string, unknown>; shown: string };
  /** Every source merged: what was checked. */
  merged: Record<string, unknown>;
}

/**
 * The name a configuration error gives a field, saying where its value came from: a value the
 * environment gave is named by its variable (`COHORT_KEEP_RUNS (keepRuns)`), since that is what
 * the user set and would change; one a file gave is named with the file
 * (`routing.threshold in ./cohort.config.json`), which "routing.threshold" alone left the user to
 * find; one `overrides` (a command-line flag) gave keeps the setting's path.
 */
function settingName(path: readonly PropertyKey[], sources: SettingSources): string {
  const field = path.map(String).join('.');
  // An override gives the value when it sets this field, or a value (not an object, which is
  // merged key by key) at a path that holds it: `{ model: { name } }` leaves model.maxSteps be.
  const overridden = path.some((_, index) => {
    const given = valueAt(sources.overrides, path.slice(0, index + 1));
    if (given === undefined) return false;
    const merged = given !== null && typeof given === 'object' && !Array.isArray(given);
    return !merged || index === path.length - 1;
  });
  if (overridden) return field;
  const variable = envVariableFor(field, sources.env);
  if (variable) return `${variable} (${field})`;
  // A required field that is missing is in the object the file gave around it.
  const givenBy = (settings: Record<string, unknown>) =>
    valueAt(settings, path) !== undefined ||
    (path.length > 1 &&
      valueAt(sources.merged, path) === undefined &&
      valueAt(settings, path.slice(0, -1)) !== undefined);
  if (givenBy(sources.file.settings)) return `${field} in ${sources.file.shown}`;
  if (givenBy({ mcpServers: sources.mcp.servers })) return `${field} in ${sources.mcp.shown}`;
  return field;
}

/** The value at `path` in nested plain objects, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Drops undefined leaves so they do not override values from the file. */
function prune(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const pruned = prune(inner);
    if (
      pruned !== undefined &&
      !(
        typeof pruned === 'object' &&
        pruned !== null &&
        !Array.isArray(pruned) &&
        Object.keys(pruned).length === 0
      )
    ) {
      out[key] = pruned;
    }
  }
  return out;
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current &&
      typeof current === 'object' &&
      !Array.isArray(current)
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

/** What the configuration's files are called in errors about them. */
const CONFIG_FILE_KIND = 'configuration file';

/**
 * The configuration file a user named (`--config`, `COHORT_CONFIG`), or an error naming it. It is
 * read up to {@link MAX_FOUND_FILE_BYTES}, as a found one is, but not refused for its kind: a pipe
 * (`--config <(…)`, `/dev/stdin`) is a way to give one. `--config /dev/zero` read without end,
 * the process growing until it ran out of memory.
 */
function readNamedConfig(path: string): string {
  return readNamedFile(path, CONFIG_FILE_KIND, {
    maxBytes: MAX_FOUND_FILE_BYTES,
    fileKind: 'JSON file',
    tooLargeHint: 'name the JSON file of your settings',
  });
}

/**
 * Loads the configuration: defaults, then `cohort.config.json` (or `COHORT_CONFIG`), then the
 * environment, then `overrides`. Invalid values are an `invalid_input` error naming the field.
 * A `cohort.config.json` found in the working directory (not one named with `file` or
 * `COHORT_CONFIG`) is a repository's file as much as the user's: its guarded settings (sandbox
 * off, allow rules, MCP servers, endpoints that receive keys; see `project-config-approvals.ts`)
 * apply only once the user approved them for that folder (`cohort config approve`), and are left
 * out otherwise; `onProjectConfigReview` is told which.
 *
 * @example
 * const config = loadConfig({ env: process.env, overrides: { dataDir: '/tmp/cohort' } });
 */
export function loadConfig(
  options: {
    env?: Env;
    cwd?: string;
    file?: string;
    overrides?: CohortConfigInput;
    /** The home whose `~/.config/cohort` holds the approved MCP servers (tests pass their own). */
    home?: string;
    /** Receives the project's `.mcp.json` servers and which of them the user approved. */
    onProjectMcpReview?: (review: ProjectMcpReview) => void;
    /** Receives the found `cohort.config.json`'s guarded settings and whether they were approved. */
    onProjectConfigReview?: (review: ProjectConfigReview) => void;
  } = {},
): CohortConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  // Empty means unset, as for every variable: `COHORT_CONFIG=` read the working directory itself.
  const named = options.file ?? (env.COHORT_CONFIG || undefined);
  const path = resolve(cwd, named ?? CONFIG_FILE);
  let fromFile: Record<string, unknown> = {};
  if (named ? existsSync(path) : isPresent(path)) {
    // A file named by the user is read as given (a pipe too: `--config <(…)`); the one found in
    // the working directory only when it is a regular file.
    const text = named ? readNamedConfig(path) : readFoundFile(path, CONFIG_FILE_KIND);
    // A byte-order mark (Windows editors write one) is not part of the JSON.
    const parsed = parseJsonFile(path, text.replace(/^\uFEFF/, ''));
    // `null` crashed on the first setting read ("Cannot read properties of null"), `[]` was
    // taken for no settings at all.
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CohortError(
        'invalid_input',
        `${path}: the configuration must be a JSON object ({ "routing": { … }, … }), not ${jsonKind(parsed)}.`,
        { file: path },
      );
    }
    fromFile = parsed as Record<string, unknown>;
    // `$schema` points editors at a JSON schema; it is not a setting.
    const { $schema: _schema, ...settings } = fromFile;
    const unknown = findUnknownSetting(CohortConfig, settings);
    if (unknown) {
      throw new CohortError(
        'invalid_input',
        `${path}: unknown setting "${unknown.path}"; ${unknown.within ? `"${unknown.within}" takes` : 'the settings are'} ${unknown.known.join(', ')}.`,
        { file: path, field: unknown.path },
      );
    }
    if (!named) {
      const review = reviewProjectConfig({
        cwd,
        configFile: path,
        settings: fromFile,
        env,
        ...(options.home ? { home: options.home } : {}),
      });
      options.onProjectConfigReview?.(review);
      if (!review.approved)
        fromFile = withoutSettings(
          fromFile,
          review.guarded.map((setting) => setting.path),
        );
    }
  } else if (named) {
    const undecoded = undecodedPathProblem(path);
    throw new CohortError(
      'invalid_input',
      `Config file not found: ${path}${undecoded ? `: ${undecoded}` : ''}`,
      { file: path },
    );
  }
  const servers = projectMcpServers(cwd, fromFile.mcpServers, env);
  const withMcp = { ...fromFile, mcpServers: servers.merged };
  const overrides = (prune(options.overrides ?? {}) as Record<string, unknown>) ?? {};
  const merged = merge(merge(withMcp, configFromEnv(env)), overrides);
  const sources: SettingSources = {
    env,
    overrides,
    // As the user named it (`--config prod.json`), or as found in the working folder.
    file: { settings: fromFile, shown: named ?? `./${CONFIG_FILE}` },
    mcp: { servers: servers.project, shown: `./${MCP_JSON_FILE}` },
    merged,
  };
  const names = (path: readonly PropertyKey[]) => settingName(path, sources);
  const result = CohortConfig.safeParse(merged, { error: issueWording({ names }) });
  if (!result.success)
    throw fromZodError(result.error, { prefix: 'Invalid configuration: ', names });
  // Checked once every entry is valid, so a malformed one is named even before approval.
  const review = reviewProjectMcpServers({
    cwd,
    servers: servers.project,
    env,
    ...(options.home ? { home: options.home } : {}),
  });
  options.onProjectMcpReview?.(review);
  const unapproved = new Set(
    review.servers.filter((server) => !server.approved).map((s) => s.name),
  );
  const data = hidingSourceFiles(result.data, [path, servers.path]);
  if (unapproved.size === 0) return data;
  const mcpServers = Object.fromEntries(
    Object.entries(data.mcpServers).filter(([name]) => !unapproved.has(name)),
  );
  return { ...data, mcpServers };
}

/**
 * `config` with the files it was read from added to `sandbox.denyRead`: they hold the keys it
 * names (`model.apiKey`, `server.apiKey`, MCP servers' tokens). A bare `cohort.config.json` entry
 * covers only the workspace, and the sandbox shows the rest of the file system read-only: a file
 * named with `--config prod.json` or `COHORT_CONFIG`, or the one found in the working folder when
 * the coding workspace is another, was read by the coding assistant's `read` and `cat`.
 * Only regular files: a pipe (`--config <(…)`) has nothing left to read.
 */
function hidingSourceFiles(config: CohortConfig, paths: readonly string[]): CohortConfig {
  const files = paths.filter((path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
  if (files.length === 0) return config;
  const denyRead = [...new Set([...config.sandbox.denyRead, ...files])];
  return { ...config, sandbox: { ...config.sandbox, denyRead } };
}

/** The project file Claude Code reads MCP servers from; cohort reads it too. */
export const MCP_JSON_FILE = '.mcp.json';

/**
 * The MCP servers of a project: the `mcpServers` of its `.mcp.json` (Claude Code's file), then
 * those of `cohort.config.json`, which win for a name in both. `${VAR}` and `${VAR:-default}`
 * are read from the environment, as Claude Code does. `project` holds the `.mcp.json` servers
 * `cohort.config.json` does not redefine, as written: they start only once approved.
 */
function projectMcpServers(
  cwd: string,
  configured: unknown,
  env: Env,
): { merged: unknown; project: Record<string, unknown>; path: string } {
  const path = resolve(cwd, MCP_JSON_FILE);
  let fromProject: unknown = {};
  if (isPresent(path)) {
    const text = readFoundFile(path, CONFIG_FILE_KIND);
    fromProject = (parseJsonFile(path, text) as { mcpServers?: unknown } | null)?.mcpServers ?? {};
  }
  const objectOr = (value: unknown): Record<string, unknown> =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  const fromConfig = objectOr(configured);
  const project = Object.fromEntries(
    Object.entries(objectOr(fromProject)).filter(([name]) => !Object.hasOwn(fromConfig, name)),
  );
  return { merged: expandEnv({ ...objectOr(fromProject), ...fromConfig }, env), project, path };
}

/**
 * How deep {@link expandEnv} reads: a server's strings are at most three levels down
 * (`name.env.VAR`, `name.args[0]`); what lies deeper is no server definition, and the schema
 * refuses it as written.
 */
const EXPAND_ENV_DEPTH = 4;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string with the environment's value, down to
 * {@link EXPAND_ENV_DEPTH} levels: a `.mcp.json` nested 100,000 levels deep overflowed the stack
 * here ('unexpected error: Maximum call stack size exceeded' from every command). A variable
 * that is not set and has no default stays as written: that server does not start, and says
 * which variable it lacks (`unsetVariables` in tools/mcp), where it became '' ('Bearer ').
 */
function expandEnv(value: unknown, env: Env, depth = 0): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (written: string, name: string, fallback?: string) => env[name] ?? fallback ?? written,
    );
  if (depth >= EXPAND_ENV_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => expandEnv(item, env, depth + 1));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, expandEnv(inner, env, depth + 1)]),
    );
  return value;
}

/** True when a chat model endpoint is configured (a key or a base URL); otherwise extractive mode. */
export function hasModel(config: CohortConfig): boolean {
  return Boolean(config.model.apiKey || config.model.baseUrl);
}
