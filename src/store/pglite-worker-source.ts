import { describeCause } from '../errors/index.js';
import { BYTEA_TYPE_ID, parseBytea, serializeBytea } from './pglite-bytea.js';
import { readSnapshotWith, unpackSnapshotWith } from './snapshot-unpack.js';
import { readIntoLargeArrayWith } from './pglite-wasm.js';

/**
 * The code of the thread that owns an embedded PGlite store (see `openPgliteWorkerDb`). Kept as
 * plain JavaScript run with `eval`, so the same code runs from the TypeScript sources (tests) and
 * from `dist` without a loader. It answers `{ id, op, sql, params, tx }` messages with
 * `{ id, result }` or `{ id, error }` (a query's `copy` is the text its `COPY … FROM '/dev/blob'`
 * reads); `begin` opens an interactive transaction whose queries carry
 * its `tx` number, ended by `commit` or `rollback` (or, before either, by `commitWhenAnswered`, which
 * commits it once its statements have run unless one failed; the `commit` or `rollback` that
 * follows is answered with that outcome); `batch` runs `statements` all or none,
 * committed together with the other batches waiting at that moment.
 */
export const PGLITE_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const BYTEA_TYPE_ID = ${BYTEA_TYPE_ID};
const parseBytea = ${parseBytea.toString()};
const serializeBytea = ${serializeBytea.toString()};
// Source run through a loader that keeps function names with esbuild's helper (tsx, which runs
// the tests' child processes) names its inner functions with its '__name', defined here as it is there.
const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });
const readSnapshotWith = ${readSnapshotWith.toString()};
const unpackSnapshotWith = ${unpackSnapshotWith.toString()};
const readIntoLargeArrayWith = ${readIntoLargeArrayWith.toString()};

// Read as the main thread reads causes: a thrown non-Error (PGlite's file system throws
// { name: 'ErrnoError', errno }) is described by its fields, not as "[object Object]".
const describeCause = ${describeCause.toString()};
const describe = (error) => ({
  message: describeCause(error),
  code: error && error.code,
  detail: error && error.detail,
  name: error && error.name,
});
const reply = (id, result, error) => parentPort.postMessage({ id, result, error });
const rowsOf = (result) => ({ rows: result.rows });
// A query's 'copy' text (rows for a COPY … FROM '/dev/blob') is the file PGlite gives it.
const copyOptions = (message) =>
  message.copy === undefined ? undefined : { blob: new Blob([message.copy]) };

// V8's collector, exposed at run time (a worker thread takes no --expose-gc), or undefined.
let collectGarbage;
try {
  require('node:v8').setFlagsFromString('--expose-gc');
  collectGarbage = require('node:vm').runInNewContext('gc');
} catch {
  collectGarbage = undefined;
}

async function main() {
  // PGlite's module, when the main thread has none: compiled here (on V8's compiler threads) while
  // this thread unpacks the folder and loads PGlite, not on the main thread, which reads and parses
  // meanwhile (an ingestion). Read as the main thread reads it (see pglite-wasm.ts).
  let compiling;
  if (workerData.wasm) {
    try {
      compiling = WebAssembly.compile(
        readIntoLargeArrayWith(require('node:fs'), workerData.wasm.path, workerData.wasm.arrayBytes),
      );
    } catch (error) {
      compiling = Promise.reject(error);
    }
    compiling.catch(() => undefined);
  }
  // A new store's folder, unpacked from the fresh-folder snapshot here, on this thread, while
  // the main thread reads and parses (an ingestion) and PGlite's module compiles: it was ≈ 0.3 s
  // of the main thread's time (a thousand files, 40 MB) before it could start parsing.
  if (workerData.snapshot) {
    try {
      unpackSnapshotWith(
        { fs: require('node:fs'), join: require('node:path').join },
        readSnapshotWith,
        workerData.snapshot,
        workerData.dataDir,
      );
    } catch (error) {
      reply(0, undefined, { ...describe(error), unpacking: true });
      return;
    }
  }
  let pg;
  let wasmModule;
  try {
    const { PGlite } = require(workerData.pglitePath);
    // PGlite's defaults pass -F (no fsync): without it, a commit is on disk when it is acknowledged.
    // The embedded memory settings (pglite-settings.ts) follow, so they override PGlite's.
    const startParams = PGlite.defaultStartParams.filter((param) => param !== '-F');
    const options = {
      startParams: [...startParams, ...workerData.startParams],
      parsers: { [BYTEA_TYPE_ID]: parseBytea },
      serializers: { [BYTEA_TYPE_ID]: serializeBytea },
    };
    if (workerData.vectorPath) options.extensions = { vector: require(workerData.vectorPath).vector };
    // Otherwise the module is compiled on the main thread while this one unpacks the folder and
    // loads PGlite: the engine opens once told, with the compiled module the message carries.
    if (compiling) {
      wasmModule = await compiling;
    } else {
      const open = await new Promise((resolve) => parentPort.once('message', resolve));
      wasmModule = open.wasmModule;
    }
    options.pgliteWasmModule = wasmModule;
    pg = await PGlite.create(workerData.dataDir, options);
  } catch (error) {
    reply(0, undefined, describe(error));
    return;
  }
  // The module compiled here goes back to the main thread, which keeps it for later stores.
  reply(0, compiling ? { wasmModule } : 'ready');

  const transactions = new Map();
  const runTransaction = (begin) => {
    const inbox = { queue: [], wake: undefined, end: undefined, early: undefined, ending: false };
    transactions.set(begin.tx, inbox);
    const next = async () => {
      while (inbox.queue.length === 0) await new Promise((resolve) => (inbox.wake = resolve));
      return inbox.queue.shift();
    };
    // Whether a statement of it failed: PostgreSQL would take a COMMIT then as a ROLLBACK.
    let failed = false;
    let settle;
    inbox.early = new Promise((resolve) => (settle = resolve));
    pg.transaction(async (tx) => {
      reply(begin.id, null);
      for (;;) {
        const message = await next();
        if (message.op === 'commitWhenAnswered') {
          // Every statement sent in it has run: ended here, without the main thread's commit.
          inbox.end = message;
          if (failed) throw Object.assign(new Error('rolled back'), { rolledBack: true });
          return;
        }
        if (message.op === 'commit' || message.op === 'rollback') {
          inbox.end = message;
          // Throwing makes PGlite roll back; returning commits.
          if (message.op === 'rollback') throw Object.assign(new Error('rolled back'), { rolledBack: true });
          return;
        }
        try {
          if (message.op === 'exec') {
            await tx.exec(message.sql);
            reply(message.id, null);
          } else {
            reply(message.id, rowsOf(await tx.query(message.sql, message.params, copyOptions(message))));
          }
        } catch (error) {
          failed = true;
          reply(message.id, undefined, describe(error));
        }
      }
    }).then(
      () => {
        if (inbox.end.op === 'commitWhenAnswered') return settle({ committed: true });
        transactions.delete(begin.tx);
        reply(inbox.end.id, null);
      },
      (error) => {
        if (inbox.end && inbox.end.op === 'commitWhenAnswered')
          return settle(error && error.rolledBack ? { committed: false } : { error: describe(error) });
        transactions.delete(begin.tx);
        if (!inbox.end) reply(begin.id, undefined, describe(error));
        else if (error && error.rolledBack) reply(inbox.end.id, null);
        else reply(inbox.end.id, undefined, describe(error));
      },
    );
  };

  // The main thread's commit or rollback of a transaction that ended on its own
  // (commitWhenAnswered): answered with how it ended, once it has.
  const endedEarly = (inbox, message) =>
    inbox.early.then((outcome) => {
      transactions.delete(message.tx);
      if (outcome.error) return reply(message.id, undefined, outcome.error);
      if (message.op === 'commit')
        return outcome.committed
          ? reply(message.id, null)
          : reply(message.id, undefined, { message: 'The transaction was rolled back: a statement in it failed.' });
      return outcome.committed
        ? reply(message.id, undefined, { message: 'The transaction was committed already.' })
        : reply(message.id, null);
    });

  // Batches (a turn, a trace: statements that need no answer in between) are committed in groups:
  // every batch that arrived while the previous group ran goes into the next transaction, so many
  // concurrent writes share one commit (one fsync, one BEGIN/COMMIT) instead of paying one each.
  const batches = [];
  let grouping = false;
  const runStatements = async (tx, statements) => {
    for (const statement of statements) await tx.query(statement.sql, statement.params || []);
  };
  const runBatches = async () => {
    if (grouping) return;
    grouping = true;
    try {
      while (batches.length > 0) {
        const group = batches.splice(0);
        try {
          await pg.transaction(async (tx) => {
            for (const batch of group) await runStatements(tx, batch.statements);
          });
          for (const batch of group) reply(batch.id, null);
        } catch (groupError) {
          if (group.length === 1) {
            reply(group[0].id, undefined, describe(groupError));
            continue;
          }
          // One batch failed and took its group with it: each runs again alone, so that only the
          // failing one fails and every other commits (each batch stays all or none).
          for (const batch of group) {
            try {
              await pg.transaction((tx) => runStatements(tx, batch.statements));
              reply(batch.id, null);
            } catch (error) {
              reply(batch.id, undefined, describe(error));
            }
          }
        }
      }
    } finally {
      grouping = false;
    }
  };

  // A burst of work (migrations, an ingestion, saving the built index) leaves garbage that an idle
  // thread would keep until it allocates again, which it may not do for hours: once no message has
  // come for a while, it is collected, so the thread's heap is back to its live data.
  let idleTimer;
  const collectWhenIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (collectGarbage) collectGarbage();
    }, workerData.idleCollectMs);
    idleTimer.unref();
  };

  parentPort.on('message', async (message) => {
    if (workerData.idleCollectMs !== undefined) collectWhenIdle();
    if (message.tx !== undefined && message.op !== 'begin') {
      const inbox = transactions.get(message.tx);
      if (!inbox) return reply(message.id, undefined, { message: 'The transaction has ended.' });
      // Told to end on its own already: what follows hears how it ended, or that it has.
      if (inbox.ending) {
        if (message.op === 'commit' || message.op === 'rollback') return endedEarly(inbox, message);
        return reply(message.id, undefined, { message: 'The transaction has ended.' });
      }
      if (message.op === 'commitWhenAnswered') inbox.ending = true;
      inbox.queue.push(message);
      if (inbox.wake) {
        const wake = inbox.wake;
        inbox.wake = undefined;
        wake();
      }
      return;
    }
    try {
      if (message.op === 'begin') return runTransaction(message);
      if (message.op === 'batch') {
        batches.push(message);
        return runBatches();
      }
      if (message.op === 'query')
        return reply(message.id, rowsOf(await pg.query(message.sql, message.params, copyOptions(message))));
      if (message.op === 'exec') {
        await pg.exec(message.sql);
        return reply(message.id, null);
      }
      if (message.op === 'dump') {
        const dump = await pg.dumpDataDir(message.compression);
        return reply(message.id, new Uint8Array(await dump.arrayBuffer()));
      }
      // The bytes of the thread's heap in use (its live data, plus garbage not yet collected).
      if (message.op === 'heap') return reply(message.id, require('node:v8').getHeapStatistics().used_heap_size);
      if (message.op === 'close') {
        await pg.close();
        return reply(message.id, null);
      }
      reply(message.id, undefined, { message: 'Unknown operation ' + message.op });
    } catch (error) {
      reply(message.id, undefined, describe(error));
    }
  });
}

main();
`;
