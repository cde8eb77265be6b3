import { loadConfig, type CohortConfig } from '../config/index.js';
import { openAssistant, type OpenedAssistant } from '../assistant/index.js';
import { renderProgressBar, type IngestProgress, type IngestSummary } from '../retrieval/index.js';
import { createLogger, type Logger } from '../telemetry/index.js';
import type { CliIo } from './command.js';

/** Flags every store-using command accepts. */
export const STORE_FLAGS = {
  'data-dir': { type: 'string' },
  config: { type: 'string' },
} as const;

/** Loads the config from the file, the environment and the command's flags. */
export function configFor(io: CliIo, values: Record<string, unknown>): CohortConfig {
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined;
  const file = typeof values.config === 'string' ? values.config : undefined;
  return loadConfig({
    env: io.env,
    cwd: io.cwd,
    ...(file ? { file } : {}),
    ...(dataDir ? { overrides: { dataDir } } : {}),
  });
}

/**
 * How a command opens what it needs, with the first-use ingestion drawn on stderr: the progress
 * bar on a terminal, then one line saying what was ingested. `open` receives the config, logger
 * and progress callback and returns anything with an `ingested` summary (an assistant, a
 * knowledge base, a research agent's knowledge base).
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
): Promise<T> {
  const config = configFor(io, values);
  let drawn = false;
  const opened = await open({
    config,
    logger: createLogger({ level: config.logLevel, write: (line) => io.stderr(line + '\n') }),
    onIngestProgress: ({ done, total }) => {
      if (!io.isTTY) return;
      drawn = true;
      io.stderr(`\rIngesting the sample book ${renderProgressBar(done, total, 24)}`);
    },
  });
  if (drawn) io.stderr('\n');
  const ingested = ingestedOf(opened);
  if (ingested) {
    io.stderr(
      `Ingested ${ingested.files} files (${ingested.chunks} chunks) into ${config.databaseUrl ? 'PostgreSQL' : config.dataDir} on first use.\n`,
    );
  }
  return opened;
}

/** Opens the book assistant for a command (`openAssistant`, with the ingestion drawn). */
export function openForCli(io: CliIo, values: Record<string, unknown>): Promise<OpenedAssistant> {
  return openWithProgress(io, values, openAssistant, (opened) => opened.ingested);
}
