import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { DEFAULT_DATA_DIR } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { createStore, openPgliteDb } from '../store/index.js';
import {
  createRetriever,
  ingest,
  type IngestSummary,
  type RankerOptions,
} from '../retrieval/index.js';
import { evaluateRetrieval, type RetrievalReport } from './evaluate-retrieval.js';
import { goldNotFound } from './gold-not-found.js';
import { loadRetrievalCases } from './retrieval-cases.js';

/** A retrieval report with the ingestion it ran on. */
export interface CorpusRetrievalReport extends RetrievalReport {
  ingest: IngestSummary;
  /** Gold labels that name no section of the corpus (see `goldNotFound`): no ranking finds them. */
  unknownGold: string[];
}

/**
 * Ingests `corpusDir` into a separate, throw-away store and evaluates `casesFile` against it. The
 * store lives in `dataDir` (`memory://` keeps it in memory; default: a new temporary folder that is
 * removed afterwards), never in the user's `.cohort`.
 *
 * @example
 * const report = await evaluateRetrievalOnCorpus({
 *   corpusDir: '../shared/corpus/physical-ai-book',
 *   casesFile: '../shared/eval/retrieval-dev.jsonl',
 * });
 */
export async function evaluateRetrievalOnCorpus(input: {
  corpusDir: string;
  casesFile: string;
  dataDir?: string;
  techniques?: RankerOptions['techniques'];
  signal?: AbortSignal;
}): Promise<CorpusRetrievalReport> {
  if (
    input.dataDir &&
    input.dataDir !== 'memory://' &&
    basename(resolve(input.dataDir)) === DEFAULT_DATA_DIR
  ) {
    throw new CohortError(
      'invalid_input',
      `Refusing to evaluate in "${input.dataDir}": that is a user data folder. Give a scratch folder or memory://.`,
      { field: 'dataDir' },
    );
  }
  const cases = await loadRetrievalCases(input.casesFile);
  const temporary = input.dataDir ? undefined : await mkdtemp(join(tmpdir(), 'cohort-eval-'));
  const store = await createStore(await openPgliteDb(input.dataDir ?? (temporary as string)));
  try {
    const summary = await ingest(input.corpusDir, { store, signal: input.signal });
    const retriever = createRetriever(store, { techniques: input.techniques });
    const report = await evaluateRetrieval({ cases, retriever, signal: input.signal });
    return {
      ...report,
      ingest: summary,
      unknownGold: goldNotFound(cases, await store.chunks.all()),
    };
  } finally {
    await store.close();
    if (temporary) await rm(temporary, { recursive: true, force: true });
  }
}
