/**
 * cohort's library surface. Everything else is internal; the CLI and the server are thin shells
 * over these functions.
 *
 * @example
 * import { loadConfig, openAssistant } from 'cohort';
 * const { assistant, close } = await openAssistant({ config: loadConfig() });
 * const reply = await assistant.ask({ query: 'What is a ROS 2 topic?' });
 */
export * from './schema/index.js';
export { CohortError, isCohortError, parseInput, type CohortErrorCode } from './errors/index.js';
export { loadConfig, hasModel, CohortConfig, type CohortConfigInput } from './config/index.js';
export { createLogger, silentLogger, type Logger } from './telemetry/index.js';
export { openStore, createStore, type Store } from './store/index.js';
export {
  defineAgent,
  parseAgentFile,
  loadAgentDir,
  AgentRegistry,
  createModelRunner,
  createExtractiveRunner,
  createRagSkill,
  type Agent,
  type AgentRunner,
  type AgentEvent,
} from './agents/index.js';
export { canHandle, createRouter, createBookRegistry, evaluateRouting } from './routing/index.js';
export {
  ingest,
  createRetriever,
  createRetrieverFromChunks,
  openKnowledgeBase,
  type KnowledgeBase,
  type Retriever,
} from './retrieval/index.js';
export { evaluateRetrieval, evaluateAnswers, evaluateAnswersOnCorpus } from './eval/index.js';
export { formatCitations, extractSourceText, formatSourcesFooter } from './citations/index.js';
export { loadSkills, activateSkill } from './skills/index.js';
export { createModelProvider, embedTexts, reciprocalRankFusion } from './models/index.js';
export {
  createAssistant,
  createContextSkill,
  openAssistant,
  modelPartsFor,
  type Assistant,
  type AssistantEvent,
} from './assistant/index.js';
export { spawnSubagent, createTaskTool } from './subagents/index.js';
export { runCodingAgent, openCoding } from './coding/index.js';
export {
  openResearch,
  runResearch,
  streamResearch,
  createResearchDependencies,
  routeSourceNecessity,
} from './research/index.js';
export {
  createServer,
  startServer,
  type ServerOptions,
  type RunningServer,
  type StartServerOptions,
} from './server/index.js';
