import { loadConfig, type CohortConfig } from '../config/index.js';
import { modelPartsFor, openAssistant, type OpenedAssistant } from '../assistant/index.js';
import { renderProgressBar } from '../retrieval/index.js';
import { createLogger } from '../telemetry/index.js';
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

/** Opens the assistant for a command, drawing the first-use ingestion progress on stderr. */
export async function openForCli(
  io: CliIo,
  values: Record<string, unknown>,
): Promise<OpenedAssistant> {
  const config = configFor(io, values);
  let drawn = false;
  const opened = await openAssistant({
    config,
    logger: createLogger({ level: config.logLevel, write: (line) => io.stderr(line + '\n') }),
    modelParts: modelPartsFor,
    onIngestProgress: ({ done, total }) => {
      if (!io.isTTY) return;
      drawn = true;
      io.stderr(`\rIngesting the sample book ${renderProgressBar(done, total, 24)}`);
    },
  });
  if (drawn) io.stderr('\n');
  if (opened.ingested) {
    io.stderr(
      `Ingested ${opened.ingested.files} files (${opened.ingested.chunks} chunks) into ${config.databaseUrl ? 'PostgreSQL' : config.dataDir} on first use.\n`,
    );
  }
  return opened;
}
