// The child process `cohort serve` starts on a new data folder (see first-start.ts): it ingests
// the sample book and builds the router and the index into the folder, hands the folder's lock to
// its parent and exits, so the memory the building leaves behind is returned with the process.
import { prepareKnowledge } from '../assistant/index.js';
import { CohortError, isCohortError } from '../errors/index.js';
import { knowledgeStoreOptions } from '../retrieval/store-options.js';
import { acquireFolderLock, createDataFolder, openStore } from '../store/index.js';
import { createLogger } from '../telemetry/index.js';
import { PrepareRequest, type PrepareReport } from './first-start-protocol.js';

const send = (report: PrepareReport) =>
  new Promise<void>((sent) => {
    if (!process.send) return sent();
    process.send(report, undefined, undefined, () => sent());
  });

async function prepare(message: unknown): Promise<void> {
  const request = PrepareRequest.safeParse(message);
  if (!request.success)
    throw new CohortError('internal', 'The first-start helper received a malformed request.');
  const { config, holder } = request.data;
  const logger = createLogger({ level: config.logLevel });
  // Taken here, naming the parent's command: a second process is told what holds the folder.
  createDataFolder(config.dataDir);
  const lock = acquireFolderLock(config.dataDir, { command: holder.command });
  let handedOver = false;
  try {
    const store = await openStore(config, {
      ...knowledgeStoreOptions(config, logger),
      // The store's close must not unlock the folder: the lock goes to the parent afterwards.
      lock: { path: lock.path, release: () => undefined, handOver: lock.handOver },
    });
    let ingested;
    try {
      ingested = await prepareKnowledge({
        config,
        logger,
        store,
        onIngestProgress: ({ done, total, file }) =>
          void send({ type: 'progress', done, total, file }),
      });
    } finally {
      await store.close();
    }
    lock.handOver(holder);
    handedOver = true;
    await send({
      type: 'done',
      ...(ingested ? { ingested: { files: ingested.files, chunks: ingested.chunks } } : {}),
    });
  } finally {
    if (!handedOver) lock.release();
  }
}

// The parent gone (killed): stop at once rather than go on writing a folder nobody waits for. The
// lock names this process until it exits, and the folder is as a kill would leave it, which the
// next start recovers (an ingestion is one transaction).
process.once('disconnect', () => process.exit(1));
process.once('message', (message: unknown) => {
  prepare(message).then(
    () => process.exit(0),
    async (error: unknown) => {
      await send({
        type: 'failed',
        code: isCohortError(error) ? error.code : 'internal',
        message: error instanceof Error ? error.message : String(error),
        ...(isCohortError(error) && error.field ? { field: error.field } : {}),
        ...(isCohortError(error) && error.file ? { file: error.file } : {}),
      });
      process.exit(1);
    },
  );
});
