import { hasModel } from '../../config/index.js';
import { CohortError, oneOf, refusedValue } from '../../errors/index.js';
import { assertPortFree, startServer, useServerHeapSettings } from '../../server/index.js';
import { createLogger, LogLevel } from '../../telemetry/index.js';
import { integerFlag, parseCommandArgs, stringFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { prepareNewFolderInChild } from '../first-start.js';
import { announceNewFolder, configFor, ingestionReport, openForCli, STORE_FLAGS } from '../open.js';
import { tellUnapproved, unapprovedWorkspaceSettings } from '../workspace-notices.js';

const usage =
  'cohort serve [--port 8787] [--host 127.0.0.1] [--log-level info] [--data-dir DIR] [--config FILE]';
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function levelOf(value: string | undefined): LogLevel | undefined {
  if (value === undefined) return undefined;
  const level = LogLevel.safeParse(value);
  if (!level.success) {
    throw new CohortError(
      'invalid_input',
      `${refusedValue('--log-level', oneOf(LogLevel.options), value)}.`,
      { field: 'log-level' },
    );
  }
  return level.data;
}

/**
 * `cohort serve`: the HTTP API and the web chat page. Ingests the sample book on first start when
 * the store is empty, and stops gracefully on Ctrl-C / SIGTERM (open requests finish first).
 */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the HTTP API and the web chat page',
  usage,
  async run(args, io) {
    const { values } = parseCommandArgs(
      args,
      {
        port: { type: 'string' },
        host: { type: 'string' },
        'log-level': { type: 'string' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const port = integerFlag(values, 'port', { min: 0, max: 65535 }, usage);
    const host = stringFlag(values, 'host');
    const level = levelOf(stringFlag(values, 'log-level'));
    const config = configFor(io, values);
    // With a model, `/code` works on this folder: its .claude settings and skills are left out
    // until approved, said once here as `cohort code` says it (a request has no terminal to tell).
    if (hasModel(config))
      for (const review of unapprovedWorkspaceSettings(io, io.cwd)) tellUnapproved(io, review);
    const settings = {
      ...config.server,
      ...(port !== undefined ? { port } : {}),
      ...(host ? { host } : {}),
    };
    // Before the store opens and the first-use ingestion runs: a port in use is said at once.
    await assertPortFree(settings.host, settings.port);
    // This process is a server's: the old generation grows less before V8 collects it, so the
    // garbage requests leave behind does not raise the peak with every request served.
    useServerHeapSettings();
    // A new data folder is ingested and its router and index built in a child process, which
    // returns the memory that work leaves behind when it exits; this process then opens the
    // folder as every later start does, loading what the child saved.
    announceNewFolder(io, config);
    const report = ingestionReport(io, config);
    report.finish(await prepareNewFolderInChild(config, io, report.onIngestProgress));
    const opened = await openForCli(io, values, { config });
    const logger = createLogger({
      level: level ?? opened.config.logLevel,
      write: (line) => io.stderr(line + '\n'),
    });
    // The lexical index is loaded (or built, on a store just ingested) before the server says it
    // is serving, so the first requests do not wait for it; if it cannot be read now, the first
    // query tries again and reports why.
    await opened.knowledgeBase.warm?.().catch(() => undefined);
    let running;
    try {
      running = await startServer(opened, {
        server: settings,
        logger,
        close: opened.close,
        coding: { workspace: io.cwd },
      });
    } catch (error) {
      await opened.close();
      throw error;
    }
    io.stdout(`cohort is serving the book assistant on ${running.url}\n`);
    io.stdout(`  answering: ${opened.modeDescription}\n`);
    io.stdout(`  API: ${running.url}/openapi.json · OpenAI-compatible: ${running.url}/v1\n`);
    if (!LOOPBACK.has(settings.host) && !settings.apiKey) {
      io.stderr(
        `Warning: listening on ${settings.host} without an API key; set COHORT_API_KEY to require one.\n`,
      );
    }
    io.stdout('Press Ctrl-C to stop.\n');
    await running.closed;
    io.stdout('Stopped.\n');
    return 0;
  },
};
