import type { Assistant, OpenedAssistant } from '../assistant/index.js';
import {
  approveProjectConfig,
  approveProjectMcpServers,
  loadConfig,
  mcpServerCommandLine,
  unapprovedConfigMessage,
  type CohortConfig,
  type ProjectConfigReview,
  type ProjectMcpReview,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { renderProgressBar } from '../retrieval/ingest/progress-bar.js';
import { knowledgeStoreOptions } from '../retrieval/store-options.js';
import type { IngestProgress, IngestSummary } from '../retrieval/index.js';
import {
  assertDataFolder,
  isNewDataFolder,
  LOCK_FILE_NAME,
  openStore,
  startCachedStore,
  storeFolder,
  type Store,
} from '../store/index.js';
import { countOf, createLogger, type Logger } from '../telemetry/index.js';
import type { CliIo } from './command.js';

/** Flags every store-using command accepts. */
export const STORE_FLAGS = {
  'data-dir': { type: 'string' },
  config: { type: 'string' },
} as const;

/** The runs already told which project MCP servers were left out (a command loads the config twice). */
const toldUnapproved = new WeakSet<CliIo>();
/** The runs already told which settings of the folder's cohort.config.json were left out. */
const toldUnapprovedConfig = new WeakSet<CliIo>();

/**
 * Loads the config from the file, the environment and the command's flags. The project's
 * `.mcp.json` servers the user has not approved are left out, and so are the guarded settings of
 * a found `cohort.config.json` (sandbox off, allow rules, its MCP servers…) not approved with
 * `cohort config approve`; stderr says so once a run, and how to approve.
 */
export function configFor(
  io: CliIo,
  values: Record<string, unknown>,
  options: {
    onProjectMcpReview?: (review: ProjectMcpReview) => void;
    onProjectConfigReview?: (review: ProjectConfigReview) => void;
  } = {},
): CohortConfig {
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined;
  const file = typeof values.config === 'string' ? values.config : undefined;
  const config = loadConfig({
    env: io.env,
    cwd: io.cwd,
    ...(file ? { file } : {}),
    ...(dataDir ? { overrides: { dataDir } } : {}),
    onProjectMcpReview: (review) => {
      if (options.onProjectMcpReview) return options.onProjectMcpReview(review);
      const unapproved = review.servers.filter((server) => !server.approved);
      if (unapproved.length === 0 || toldUnapproved.has(io)) return;
      toldUnapproved.add(io);
      io.stderr(unapprovedMcpMessage(unapproved.map((server) => server.name)));
    },
    onProjectConfigReview: (review) => {
      if (options.onProjectConfigReview) return options.onProjectConfigReview(review);
      if (review.approved || toldUnapprovedConfig.has(io)) return;
      toldUnapprovedConfig.add(io);
      io.stderr(unapprovedConfigMessage(review));
    },
  });
  // Before anything reads the folder (the start cache, the engine): a file given as the data
  // folder is named, not an ENOTDIR from deep inside.
  const folder = storeFolder(config);
  if (folder) assertDataFolder(folder);
  return config;
}

/**
 * `configFor` with the project's `.mcp.json` servers checked against the user's approvals, and
 * nothing said of those left out: for the commands that show or ask about them.
 *
 * @example
 * const { config, review } = configAndMcpReview(io, values);
 */
export function configAndMcpReview(
  io: CliIo,
  values: Record<string, unknown>,
): { config: CohortConfig; review: ProjectMcpReview } {
  let review: ProjectMcpReview | undefined;
  const config = configFor(io, values, { onProjectMcpReview: (found) => void (review = found) });
  if (!review) throw new CohortError('invalid_input', 'The configuration was not read.');
  return { config, review };
}

/**
 * True when a person can answer a y/N question: stdin and stdout are terminals. A piped stdin
 * (`cohort code < tasks.txt`) holds input, not answers, and a prompt on a redirected stdout would
 * wait unseen.
 */
export const canAsk = (io: CliIo): boolean => io.isTTY && io.stdinIsTTY === true;

/**
 * Asks once, y/N (default No), whether to apply the guarded settings of a project file not
 * approved yet (a found `cohort.config.json`, the workspace's `.claude/settings.json`, a skill's
 * `allowed-tools`), listing them as `cohort config approve` does; a "y" is recorded as that
 * command would (same digest, same approvals file). Returns true for a yes, false for anything
 * else, undefined at the end of input (ask nothing more).
 *
 * @example
 * if (!(await askToApproveConfig(io, review, readLine))) io.stderr(unapprovedConfigMessage(review));
 */
export async function askToApproveConfig(
  io: CliIo,
  review: ProjectConfigReview,
  readLine: () => Promise<string | undefined>,
): Promise<boolean | undefined> {
  const settings = review.guarded.map(
    (setting) => `  ${setting.path} = ${JSON.stringify(setting.value)} (${setting.why})\n`,
  );
  io.stdout(
    `\n? ${review.configFile} sets what is not approved for this folder (a repository's settings could use them against you):\n${settings.join('')}  Apply them (and remember for this folder)? [y/N] `,
  );
  const line = await readLine();
  if (line === undefined) return undefined;
  if (!/^y(es)?$/i.test(line.trim())) return false;
  approveProjectConfig(review);
  io.stdout(`  Approved (recorded in ${review.file}).\n`);
  return true;
}

/**
 * `configFor` for an interactive run (`cohort code` on a terminal, see {@link canAsk}): asks
 * y/N about the guarded settings of a found `cohort.config.json` not approved yet
 * ({@link askToApproveConfig}), then about the project's `.mcp.json` servers
 * ({@link configAskingForMcp}).
 */
export async function configAskingForApproval(
  io: CliIo,
  values: Record<string, unknown>,
  readLine: () => Promise<string | undefined>,
): Promise<CohortConfig> {
  let review: ProjectConfigReview | undefined;
  configFor(io, values, {
    onProjectConfigReview: (found) => void (review = found),
    onProjectMcpReview: () => undefined,
  });
  const found = review as ProjectConfigReview | undefined;
  if (found && !found.approved && !(await askToApproveConfig(io, found, readLine))) {
    toldUnapprovedConfig.add(io);
    io.stderr(unapprovedConfigMessage(found));
  }
  return configAskingForMcp(io, values, readLine);
}

/**
 * `configFor` for an interactive run (`cohort code` on a terminal): asks once, y/N, about each
 * project `.mcp.json` server not approved yet, showing what it starts; a "y" is recorded as
 * `cohort mcp approve` would, anything else leaves the server out (and stderr says so).
 */
export async function configAskingForMcp(
  io: CliIo,
  values: Record<string, unknown>,
  readLine: () => Promise<string | undefined>,
): Promise<CohortConfig> {
  const { config, review } = configAndMcpReview(io, values);
  const unapproved = review.servers.filter((server) => !server.approved);
  if (unapproved.length === 0) return config;
  const approved: string[] = [];
  for (const server of unapproved) {
    io.stdout(
      `\n? This folder's .mcp.json names the MCP server "${server.name}", which would run on your machine, outside the sandbox:\n  ${mcpServerCommandLine(server.definition)}\n  Start it (and remember for this folder)? [y/N] `,
    );
    const line = await readLine();
    if (line === undefined) break;
    if (/^y(es)?$/i.test(line.trim())) approved.push(server.name);
  }
  const skipped = unapproved.filter((server) => !approved.includes(server.name));
  if (skipped.length > 0 && !toldUnapproved.has(io)) {
    toldUnapproved.add(io);
    io.stderr(unapprovedMcpMessage(skipped.map((server) => server.name)));
  }
  if (approved.length === 0) return config;
  approveProjectMcpServers(review, approved);
  return configFor(io, values, { onProjectMcpReview: () => undefined });
}

/** What a run says of the project MCP servers it did not start. */
export function unapprovedMcpMessage(names: string[]): string {
  const list = names.map((name) => `"${name}"`).join(', ');
  return `cohort did not start the MCP server${names.length === 1 ? '' : 's'} ${list} of this folder's .mcp.json: ${names.length === 1 ? 'it is' : 'they are'} not approved (a project's .mcp.json runs commands on your machine). Review and approve with \`cohort mcp approve\` (\`--all\` for every one).\n`;
}

/** The log a command writes: JSON lines on stderr, at the configured level. */
const cliLogger = (io: CliIo, config: CohortConfig): Logger =>
  createLogger({ level: config.logLevel, write: (line) => io.stderr(line + '\n') });

/**
 * Says on stderr, before a command makes a new data folder, that it is doing so: the first start
 * in a folder sets up the embedded database, ingests the sample book, trains the router and builds
 * the index, seconds of silence before (on a terminal) the ingestion's progress bar. On a machine
 * where no store was made yet, setting up the database is most of a first `cohort ask` (tens of
 * seconds on a busy machine; later folders start from a saved copy). Nothing for `memory://`,
 * PostgreSQL or a folder that holds a store.
 */
export function announceNewFolder(io: Pick<CliIo, 'stderr'>, config: CohortConfig): void {
  const folder = storeFolder(config);
  if (folder === undefined || !isNewDataFolder(folder, LOCK_FILE_NAME)) return;
  io.stderr(
    `Preparing the data folder ${folder} (first use only: setting up the database, ingesting the sample book)…\n`,
  );
}

/**
 * How a command shows a first-use ingestion on stderr: `onIngestProgress` draws the progress bar
 * on a terminal, and `finish` ends the bar and says in one line what was ingested, when it was.
 */
export function ingestionReport(
  io: CliIo,
  config: CohortConfig,
): {
  onIngestProgress: (progress: IngestProgress) => void;
  finish: (ingested: Pick<IngestSummary, 'files' | 'chunks'> | undefined) => void;
} {
  let drawn = false;
  return {
    onIngestProgress: ({ done, total }) => {
      if (!io.isTTY) return;
      drawn = true;
      io.control?.('stderr', '\r');
      io.stderr(`Ingesting the sample book ${renderProgressBar(done, total, 24)}`);
    },
    finish: (ingested) => {
      if (drawn) io.stderr('\n');
      drawn = false;
      if (!ingested) return;
      io.stderr(
        `Ingested ${countOf(ingested.files, 'file')} (${countOf(ingested.chunks, 'chunk')}) into ${config.databaseUrl ? 'PostgreSQL' : config.dataDir} on first use.\n`,
      );
    },
  };
}

/**
 * How a command opens what it needs, with the first-use ingestion drawn on stderr: the progress
 * bar on a terminal, then one line saying what was ingested. `open` receives the config, logger
 * and progress callback and returns anything with an `ingested` summary (an assistant, a
 * knowledge base, a research agent's knowledge base). `config` is the one the caller already
 * read, if it did: a configuration given through a pipe (`--config <(…)`, `/dev/stdin`) can be
 * read once only, and a second read found it empty ('not valid JSON').
 */
export async function openWithProgress<T>(
  io: CliIo,
  values: Record<string, unknown>,
  open: (options: {
    config: CohortConfig;
    logger: Logger;
    onIngestProgress: (progress: IngestProgress) => void;
  }) => Promise<T>,
  ingestedOf: (opened: T) => IngestSummary | undefined,
  config: CohortConfig = configFor(io, values),
): Promise<T> {
  announceNewFolder(io, config);
  const report = ingestionReport(io, config);
  const opened = await open({
    config,
    logger: cliLogger(io, config),
    onIngestProgress: report.onIngestProgress,
  });
  report.finish(ingestedOf(opened));
  return opened;
}

/** The assistant `openForCli` opened, and when what it read may be shown (see `startCache`). */
export type CliAssistant = OpenedAssistant & {
  /**
   * Resolves at once, or, when the assistant started from the data folder's start cache, once
   * the store confirmed the cache current; rejects with {@link StaleStartCache} when it was not.
   * Wait for it before showing or returning anything the assistant produced.
   */
  current: Promise<void>;
  /**
   * True while the engine has not been opened: the assistant answers from a sealed start cache
   * (and the session journal), as `detached` allows.
   */
  readonly detached: boolean;
};

/**
 * What routes a question as the answer would (`Assistant.route`: in the book's spelling), for
 * `cohort route` and `cohort eval routing`: the index is loaded first, since that reading needs it.
 */
export async function routerAsAnswered(opened: OpenedAssistant): Promise<Pick<Assistant, 'route'>> {
  await opened.knowledgeBase.warm?.().catch(() => undefined);
  return opened.assistant;
}

/** What `current` rejects with: the stale cache is deleted, so a new start reads the store. */
export class StaleStartCache extends Error {}

/**
 * Opens the book assistant for a command (`openAssistant`, with the ingestion drawn). The store
 * is opened first: an embedded store's engine then starts on its own thread while the
 * assistant's modules load on this one (a cold `cohort ask` waits for the longer of the two, not
 * for both). With `startCache` (a command that answers and exits), a PGlite folder's start cache
 * (`store/start-cache.ts`) serves the chunks, the saved index and the trained router while the
 * engine opens, so routing and search run meanwhile too; see {@link CliAssistant.current}.
 */
export async function openForCli(
  io: CliIo,
  values: Record<string, unknown>,
  options: {
    startCache?: boolean;
    /**
     * A command that needs of the engine only what a sealed start cache holds, and the turns of
     * `session` when the engine holds none of them (see `startCachedStore`).
     */
    detached?: boolean;
    session?: string;
    /** The configuration the command already read (see {@link openWithProgress}). */
    config?: CohortConfig;
  } = {},
): Promise<CliAssistant> {
  const config = options.config ?? configFor(io, values);
  const storeOptions = knowledgeStoreOptions(config, cliLogger(io, config));
  let opening: Promise<Store>;
  let current = Promise.resolve();
  let stale = () => false;
  let detached = () => false;
  const folder = storeFolder(config);
  announceNewFolder(io, config);
  if (options.startCache && folder) {
    const cached = startCachedStore(
      folder,
      (hooks) => openStore(config, { ...storeOptions, ...hooks }),
      {
        detached: options.detached === true,
        ...(options.session === undefined ? {} : { session: options.session }),
      },
    );
    stale = () => cached.stale;
    detached = () => cached.detached;
    opening = Promise.resolve(cached.store);
    current = cached.current.catch((cause: unknown) => {
      throw cached.stale ? new StaleStartCache('The start cache was stale.', { cause }) : cause;
    });
    current.catch(() => undefined);
  } else {
    opening = openStore(config, storeOptions);
    // Settled here so a failed open is reported once, by the await below, not as unhandled.
    opening.catch(() => undefined);
  }
  let store: Store | undefined;
  try {
    const { openAssistant } = await import('../assistant/index.js');
    store = await opening;
    const opened = await openWithProgress(
      io,
      values,
      (options) => openAssistant({ ...options, store: store as Store }),
      (assistant) => assistant.ingested,
      config,
    );
    return {
      ...opened,
      current,
      get detached() {
        return detached();
      },
      close: async () => {
        try {
          await opened.close();
        } finally {
          await store?.close();
        }
      },
    };
  } catch (error) {
    await (store ?? (await opening.catch(() => undefined)))?.close();
    throw stale() ? new StaleStartCache('The start cache was stale.', { cause: error }) : error;
  }
}
