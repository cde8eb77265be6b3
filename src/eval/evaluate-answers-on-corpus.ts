import type { CohortConfig } from '../config/index.js';
import { openAssistant, type ModelParts } from '../assistant/index.js';
import { ingest, type IngestSummary } from '../retrieval/index.js';
import { createStore, openPgliteDb } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import { evaluateAnswers, type AnswerReport } from './evaluate-answers.js';
import { goldNotFound } from './gold-not-found.js';
import { loadRetrievalCases } from './retrieval-cases.js';

/** Answer reports with the router on and off (the R7 rollout switch), over one ingestion. */
export interface CorpusAnswerReport {
  /** The assistant as configured: route → agent(s) → answer. */
  routed: AnswerReport;
  /** The same assistant with `routing.enabled = false`: every question to the default agent. */
  unrouted: AnswerReport;
  ingest: IngestSummary;
  /** Gold labels that name no section of the corpus (see `goldNotFound`): no answer can cite them. */
  unknownGold: string[];
}

/**
 * Ingests `corpusDir` into a throw-away in-memory store and runs every case of `casesFile` through
 * the whole assistant twice: routed as configured, and with the router switched off. The answering
 * mode follows `config`: extractive with no model, the model runner when a model is configured
 * (`modelParts` replaces how its parts are made). The user's own store is never touched.
 *
 * @example
 * const report = await evaluateAnswersOnCorpus({
 *   corpusDir: '../shared/corpus/physical-ai-book',
 *   casesFile: '../shared/eval/retrieval-dev.jsonl',
 *   config: loadConfig(),
 * });
 * console.log(report.routed.citesGold, report.unrouted.citesGold);
 */
export async function evaluateAnswersOnCorpus(input: {
  corpusDir: string;
  casesFile: string;
  config: CohortConfig;
  modelParts?: (config: CohortConfig, logger: Logger) => ModelParts | Promise<ModelParts>;
  logger?: Logger;
  signal?: AbortSignal;
}): Promise<CorpusAnswerReport> {
  const cases = await loadRetrievalCases(input.casesFile);
  const store = await createStore(await openPgliteDb('memory://'));
  try {
    const summary = await ingest(input.corpusDir, { store, signal: input.signal });
    const unknownGold = goldNotFound(cases, await store.chunks.all());
    const run = async (enabled: boolean) => {
      const config: CohortConfig = {
        ...input.config,
        routing: { ...input.config.routing, enabled },
      };
      const opened = await openAssistant({
        config,
        store,
        ...(input.logger ? { logger: input.logger } : {}),
        ...(input.modelParts ? { modelParts: input.modelParts } : {}),
      });
      return evaluateAnswers({
        cases,
        assistant: opened.assistant,
        ...(input.signal ? { signal: input.signal } : {}),
      });
    };
    const routed = await run(true);
    const unrouted = await run(false);
    return { routed, unrouted, ingest: summary, unknownGold };
  } finally {
    await store.close();
  }
}
