import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { packagePath, type CohortConfig } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import type { IngestProgress } from '../retrieval/index.js';
import { isNewDataFolder, LOCK_FILE_NAME, storeFolder, thisLockHolder } from '../store/index.js';
import type { CliIo } from './command.js';
import { PrepareReport, type PrepareRequest } from './first-start-protocol.js';

/** What the child reported the first-use ingestion did. */
export type FirstStartIngested = { files: number; chunks: number };

/** Running from the TypeScript sources (tests, `tsx`): the child runs them too, through tsx. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/**
 * Set only in tests (src/test/cli-bundle.ts, vitest.config.ts): the child as built into the run's
 * bundle of the sources, which a test process and that bundle's processes start instead of the
 * source through tsx (seconds of CPU each start).
 */
declare const COHORT_FIRST_START_CHILD: string | undefined;

/** Node's arguments and the script of the child: the bundle's entry, or the source through tsx. */
function childCommand(): { script: string; execArgv: string[] } {
  if (typeof COHORT_FIRST_START_CHILD === 'string')
    return { script: COHORT_FIRST_START_CHILD, execArgv: [] };
  if (!FROM_SOURCES)
    return { script: packagePath('dist', 'cli', 'first-start-child.js'), execArgv: [] };
  // An absolute loader URL: `tsx` alone resolves from the child's working folder, not from here.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { script: packagePath('src', 'cli', 'first-start-child.ts'), execArgv: ['--import', tsx] };
}

/**
 * Passes a child's output on as text. A pipe hands it over 64 KiB at a time, and a read may end
 * inside a character: decoded chunk by chunk, an "é" cut in two showed as two U+FFFD.
 *
 * @example
 * relayText(child.stderr, io.stderr);
 */
export function relayText(stream: Readable, write: (text: string) => void): void {
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => write(text));
}

/**
 * On a new data folder (missing or empty), ingests the sample book and builds the router and the
 * lexical index in a child process, saved in the folder as every start saves them, and returns
 * what the ingestion did; the caller then opens the folder as a later start does and loads them.
 * Does nothing (returns undefined) for a folder that holds a store already, for `memory://` and
 * for PostgreSQL.
 *
 * Why a child: training and building leave the process that did them 40–60 MB larger for good
 * (V8's old generation and the C allocator keep freed pages), which put a server's first start
 * above a later start's memory. A process that exits returns everything.
 *
 * The folder stays locked throughout: the child takes the lock naming this command, and when done
 * renames it over to this process (`FolderLock.handOver`), which then takes it over as its own. A
 * killed child leaves a lock naming a dead process and a folder as a kill leaves it (an ingestion
 * is one transaction; a new store still being written is marked unfinished and is made again),
 * which the next start recovers, in a child again; the child exits when this process dies.
 * A failure in the child is thrown here as the `CohortError` it was.
 *
 * @example
 * const ingested = await prepareNewFolderInChild(config, { onIngestProgress, stderr });
 */
export async function prepareNewFolderInChild(
  config: CohortConfig,
  io: Pick<CliIo, 'cwd' | 'stderr'>,
  onIngestProgress?: (progress: IngestProgress) => void,
): Promise<FirstStartIngested | undefined> {
  const folder = storeFolder(config);
  if (!folder || !isNewDataFolder(folder, LOCK_FILE_NAME)) return undefined;
  const { script, execArgv } = childCommand();
  const child = fork(script, [], {
    cwd: io.cwd,
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // The child's log lines (JSON, at the configured level) go where this process's go.
  if (child.stdout) relayText(child.stdout, io.stderr);
  if (child.stderr) relayText(child.stderr, io.stderr);
  let outcome: PrepareReport | undefined;
  let malformed = false;
  child.on('message', (message: unknown) => {
    const report = PrepareReport.safeParse(message);
    if (!report.success) {
      malformed = true;
      return;
    }
    if (report.data.type === 'progress') {
      const { done, total, file } = report.data;
      onIngestProgress?.({ done, total, file });
    } else outcome = report.data;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const spawnFailed = new Promise<Error>((resolve) => child.once('error', resolve));
  const request: PrepareRequest = { type: 'prepare', config, holder: thisLockHolder() };
  child.send(request);
  const ended = await Promise.race([exited, spawnFailed]);
  if (ended instanceof Error) {
    child.kill('SIGKILL');
    throw new CohortError(
      'internal',
      `Could not start the process that prepares the new data folder "${folder}": ${ended.message}.`,
      { cause: ended },
    );
  }
  if (outcome?.type === 'failed') {
    throw new CohortError(outcome.code, outcome.message, {
      ...(outcome.field ? { field: outcome.field } : {}),
      ...(outcome.file ? { file: outcome.file } : {}),
    });
  }
  if (outcome?.type === 'done' && ended.code === 0) return outcome.ingested;
  const how = ended.signal ? `was stopped by ${ended.signal}` : `exited with code ${ended.code}`;
  throw new CohortError(
    'internal',
    `The process preparing the new data folder "${folder}" (ingesting the sample book, training the router, building the index) ${how}${malformed ? ' after sending a malformed report' : ''} before it was done. Start again: the next start finds the folder as it was left and finishes it.`,
    { file: folder },
  );
}
