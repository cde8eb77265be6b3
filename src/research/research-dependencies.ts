import type { LanguageModel } from 'ai';
import type { LoopTool } from '../agents/loop/index.js';
import type { CohortConfig } from '../config/index.js';
import type { Retriever } from '../retrieval/retrievers/retriever.js';
import type { SourceDocument } from '../schema/index.js';
import type { RunRepo } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import type { CodeSandbox } from '../sandbox/index.js';

/** Options every source search takes. */
export interface SourceSearchOptions {
  signal: AbortSignal;
  maxResults: number;
}

/** A web or paper search: sources for a query. It may throw; the node turns that into a reason. */
export type SourceSearch = (
  query: string,
  options: SourceSearchOptions,
) => Promise<SourceDocument[]>;

/** A paper search with its name ("arxiv", "semantic_scholar"), for reasons and events. */
export interface PaperSearch {
  name: string;
  search: SourceSearch;
}

/** Reads a page's main text (scraping the top web result). */
export type ScrapePage = (url: string, options: { signal: AbortSignal }) => Promise<string>;

/** The research settings (config section `research`). */
export type ResearchSettings = CohortConfig['research'];

/**
 * The stored-run surface a research run needs (the store's RunRepo). With `start` and `take` a run
 * is claimed in the store while it runs, so no other process sharing the database resumes it.
 */
export type ResearchRuns = Pick<RunRepo, 'create' | 'update' | 'get' | 'saveTask' | 'tasks'> &
  Partial<Pick<RunRepo, 'recordTrace' | 'start' | 'take'>>;

/**
 * What a research run is given. Everything is passed in so tests use fakes; a missing part
 * degrades: no retriever skips internal search, no web search or papers skip those, no model
 * gives extractive findings, no sandbox ignores code, no runs store keeps the run in memory.
 */
export interface ResearchDependencies {
  settings: ResearchSettings;
  retriever?: Retriever;
  webSearch?: SourceSearch;
  paperSearches?: PaperSearch[];
  scrapePage?: ScrapePage;
  /** The analysis model (spec: the fast tier). */
  model?: LanguageModel;
  /** The lead model that plans tasks; the analysis model when unset. */
  leadModel?: LanguageModel;
  sandbox?: CodeSandbox;
  /**
   * Extra tools each subagent's analysis model may call before it answers: the configured MCP
   * servers' tools that the permission rules allow (see `researchMcpTools`). Model mode only.
   */
  tools?: readonly LoopTool[];
  runs?: ResearchRuns;
  /** Internal passages below this normalised score are not used (config `retrieval.minScore`). */
  internalMinScore?: number;
  logger?: Logger;
  /** Milliseconds, for durations; `performance.now` by default. */
  clock?: () => number;
  /** Run ids; a random UUID by default. */
  newId?: () => string;
}
