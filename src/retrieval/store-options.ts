import { hasModel, type CohortConfig } from '../config/index.js';
import type { Logger } from '../telemetry/index.js';

/**
 * How a knowledge base opens its store (`openStore`'s options): pgvector when an embedding model
 * is in use, and a dropped pooled connection (a database restart) or an unsaved trace logged,
 * not fatal. A light
 * module of its own, so the CLI can start opening the store before the assistant's modules load.
 *
 * @example
 * const store = await openStore(config, knowledgeStoreOptions(config, logger));
 */
export function knowledgeStoreOptions(
  config: CohortConfig,
  logger: Logger,
): {
  vector: boolean;
  onConnectionLost: (error: Error) => void;
  onTraceError: (cause: unknown, runIds: string[]) => void;
} {
  return {
    // As `embeddingFor` decides: an embedding model on a configured endpoint.
    vector: Boolean(config.model.embeddingModel && hasModel(config)),
    // The pool reconnects on the next query.
    onConnectionLost: (error) =>
      logger.warn('database_connection_lost', {
        cause: error.message,
        next: 'replaced by a new connection on the next query',
      }),
    // A trace is a record of an answer already given: losing one is logged, never an error.
    onTraceError: (cause, runIds) =>
      logger.warn('trace_not_saved', {
        runs: runIds.length,
        cause: cause instanceof Error ? cause.message : String(cause),
      }),
  };
}
