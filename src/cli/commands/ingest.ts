import { resolve } from 'node:path';
import type { KnowledgeRouter, PrebuiltKnowledge } from '../../assistant/index.js';
import {
  describeSkipped,
  findIngestEntries,
  ingest,
  renderProgressBar,
  type IngestOptions,
} from '../../retrieval/index.js';
import {
  chunksAfterIngestion,
  isNewDataFolder,
  LOCK_FILE_NAME,
  openStore,
  startCachedStore,
  storeFolder,
  type DocumentWrite,
  type Store,
} from '../../store/index.js';
import { toWire } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { onlyPositional, parseCommandArgs } from '../args.js';
import { configFor, STORE_FLAGS } from '../open.js';
import { countOf } from '../../telemetry/index.js';
import { describeCause } from '../../errors/index.js';

const usage = 'cohort ingest <dir> [--prune] [--replace] [--rehash] [--json] [--data-dir DIR]';

/** `cohort ingest`: add a folder of Markdown/MDX/reStructuredText to the knowledge base. */
export const ingestCommand: CliCommand = {
  name: 'ingest',
  summary: 'Ingest a folder of Markdown, MDX or reStructuredText into the knowledge base',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        json: { type: 'boolean' },
        prune: { type: 'boolean' },
        replace: { type: 'boolean' },
        rehash: { type: 'boolean' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const dir = resolve(io.cwd, onlyPositional(positionals, 'folder', usage));
    const config = configFor(io, values);
    // A wrong folder is refused before the store is opened, so it creates nothing.
    const entries = await findIngestEntries(dir);
    // Not awaited here: the files are read and parsed while the engine starts on its own thread.
    // A data folder's store is opened as a start-cached one, so that closing it writes (and
    // seals) the start cache of what the ingestion left: the first `cohort ask` after it starts
    // as every later one does, from that file, instead of reading every chunk from the engine.
    // Handed to the ingestion once the engine is open (`current`), not before: a store it holds
    // already, it asks at once what is stored, and waits for the engine instead of parsing.
    const folder = storeFolder(config);
    // Asked before the store is opened (which makes the folder): a folder holding no store yet
    // is written every chunk parsed, so they can be built from before the engine has started.
    const newFolder = folder !== undefined && isNewDataFolder(folder, LOCK_FILE_NAME);
    const opening: Promise<Store> = folder
      ? openStartCached(folder, (hooks) => openStore(config, hooks))
      : openStore(config);
    // Loaded, and into a new folder the router to train built from the agents' files, while the
    // engine writes the chunks (this thread waits for it then), not after. Into a folder that
    // holds a store it is built only when the ingestion changed something: a re-ingestion of an
    // unchanged folder neither trains nor loads it.
    const preparing = import('../../assistant/index.js').then((assistant) => {
      let router: KnowledgeRouter | undefined;
      const routerOnce = () => (router ??= assistant.knowledgeRouter(config));
      if (newFolder) routerOnce();
      return { ...assistant, routerOnce };
    });
    preparing.catch(() => undefined);
    // Settles once the ingestion has sent its writes (`onWriting`), or fails when it ends without:
    // what is built ahead goes to the store's build cache only after them (the ingestion's
    // transaction empties it), and the router trains only once this thread has sent them.
    let markSent: () => void = () => undefined;
    let markUnsent: (reason: unknown) => void = () => undefined;
    const sent = new Promise<void>((resolve, reject) => {
      markSent = resolve;
      markUnsent = reject;
    });
    sent.catch(() => undefined);
    // A new data folder's router and index, built from the chunks in hand while the engine starts,
    // writes and commits them (see `prebuildKnowledge`), not read back and built once it has:
    // from the parsed chunks in a new folder (`onParsed`), else from the written ones in a store
    // that held none (`onWriting`). `savePrebuiltKnowledge` checks that the store holds them.
    let prebuilding: Promise<PrebuiltKnowledge | undefined> | undefined;
    const prebuild = (documents: readonly DocumentWrite[]) => {
      prebuilding = preparing.then(({ prebuildKnowledge, routerOnce }) =>
        prebuildKnowledge({
          config,
          router: routerOnce(),
          saveTo: {
            put: (name, key, data) =>
              Promise.all([opening, sent]).then(([store]) => store.cache.put(name, key, data)),
          },
          afterIndex: sent,
          chunks: chunksAfterIngestion(
            documents.flatMap(({ chunks }) => chunks),
            [],
          ),
        }),
      );
      prebuilding.catch(() => undefined);
    };
    const onParsed = (documents: readonly DocumentWrite[]) => {
      if (newFolder && documents.length > 0) prebuild(documents);
    };
    const onWriting = ({
      documents,
      storeWasEmpty,
    }: Parameters<NonNullable<IngestOptions['onWriting']>>[0]) => {
      markSent();
      if (storeWasEmpty && !prebuilding) prebuild(documents);
    };
    // The ingestion is committed: what was not built now is built by the first answer.
    const notPrepared = (cause: unknown) =>
      io.stderr(
        `The router and the index were not prepared (${describeCause(cause)}): the first answer builds them.\n`,
      );
    let savingPrebuilt: Promise<void> | undefined;
    try {
      const summary = await ingest(dir, {
        // Into a folder that holds a store, the files are read once it is open: it tells which
        // are unchanged without reading them (their recorded stats), where reading and parsing
        // every file while it opened was wasted on a folder where little changed.
        store: newFolder ? opening : await opening,
        entries,
        prune: Boolean(values.prune),
        replace: Boolean(values.replace),
        rehash: Boolean(values.rehash),
        ...(folder ? { onParsed, onWriting } : {}),
        onProgress: ({ done, total, file }) => {
          if (!io.isTTY || values.json) return;
          io.control?.('stderr', '\r');
          io.stderr(`${renderProgressBar(done, total, 24)} ${file.slice(-40).padEnd(40)}`);
        },
      }).finally(() => markUnsent(new Error('The ingestion wrote nothing.')));
      if (io.isTTY && !values.json) io.stderr('\n');
      for (const { source, reason } of summary.skipped)
        io.stderr(`Skipped ${source}: ${reason}.\n`);
      for (const { source, reason } of summary.truncated) io.stderr(`Cut ${source}: ${reason}.\n`);
      for (const source of summary.empty)
        io.stderr(`Nothing to search in ${source}: it holds no text outside its headings.\n`);
      if (summary.standInRemoved.length > 0)
        io.stderr(
          `Removed the sample book ingested on first use (${countOf(summary.standInRemoved.length, 'document')}): this folder takes its place.\n`,
        );
      const files = summary.added + summary.replaced + summary.unchanged + summary.skipped.length;
      const nothingChanged =
        summary.added + summary.replaced === 0 &&
        summary.removed.length === 0 &&
        summary.standInRemoved.length === 0;
      if (values.json) io.stdout(JSON.stringify(toWire(summary), null, 2) + '\n');
      else if (nothingChanged && summary.unchanged > 0)
        io.stdout(
          `Nothing changed in ${countOf(files, 'file')}${summary.skipped.length ? ` (${describeSkipped(summary.skipped)})` : ''} · ${summary.elapsedMs} ms\n`,
        );
      else
        io.stdout(
          // Every file named, links and FIFOs too, so the parts add up to the whole (it counted
          // regular files alone: "10 files: 6 added, …, 7 skipped (2 symbolic links, …)").
          `${countOf(files, 'file')}: ${summary.added} added, ${summary.replaced} replaced, ${summary.unchanged} unchanged${summary.skipped.length ? `, ${describeSkipped(summary.skipped)}` : ''} · ${countOf(summary.chunks, 'chunk')} · ${summary.elapsedMs} ms\n`,
        );
      if (summary.files > 0 && summary.added + summary.replaced + summary.unchanged === 0) {
        // A script's `cohort ingest docs && cohort serve` must not go on with nothing ingested.
        io.stderr('Nothing was ingested: every file was skipped (the reasons are above).\n');
        return 1;
      }
      // What the first answer would otherwise build from every chunk (the trained router and the
      // lexical index), built now and saved in the store's build cache (and a data folder's
      // start cache): at ten copies of the ROS 2 docs the first `cohort ask` after an ingestion
      // took 30 s and 1.1 GB doing it.
      const store = await opening;
      if (store.cache.saves !== false) {
        await preparing
          .then(async (assistant) => {
            const { prepareKnowledge, startSavingPrebuiltKnowledge, routerOnce } = assistant;
            // Nothing changed, and what the first answer needs is saved for these chunks: nothing
            // is built or loaded (the ingestion wrote nothing, so the start cache stands too).
            if (nothingChanged && (await assistant.knowledgeIsPrepared(config, store))) return;
            // Built ahead, from chunks the store turned out to hold: saved, nothing built now.
            // The store is closed while the engine saves them: its start cache is written
            // meanwhile (see `startCachedStore`), and what failed is reported once it is closed.
            const prebuilt = await prebuilding?.catch(() => undefined);
            const saving = prebuilt && (await startSavingPrebuiltKnowledge(store, prebuilt));
            if (saving) {
              savingPrebuilt = saving.saved;
              return;
            }
            // Otherwise (it failed, or the store holds other chunks) built as it always was, when
            // the store holds any chunk.
            if ((await store.chunks.count()) > 0)
              await prepareKnowledge({ config, store, router: routerOnce() });
          })
          .catch(notPrepared);
      }
      return 0;
    } finally {
      // A store that failed to open has nothing to close (its error is the ingestion's).
      await opening.then(
        (store) => store.close(),
        () => undefined,
      );
      await savingPrebuilt?.catch(notPrepared);
    }
  },
};

/** A data folder's store opened for an ingestion (see `startCachedStore`'s `fresh`), once open. */
function openStartCached(
  folder: string,
  open: Parameters<typeof startCachedStore>[1],
): Promise<Store> {
  const { store, current } = startCachedStore(folder, open, { fresh: true });
  return current.then(() => store);
}
