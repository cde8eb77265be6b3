export { agentTitle, defineAgent, type Agent, type AgentRunOverride } from './define-agent.js';
export { parseAgentFile, loadAgentFile, loadAgentDir } from './agent-file.js';
export { AgentRegistry } from './registry.js';
export type { AgentDependencies } from './dependencies.js';
export { createRagSkill, type RagSkill } from './rag-skill.js';
export { finalResponse, runAgent, type AgentEvent, type AgentRunner } from './runners/runner.js';
export {
  ANSWER_MESSAGES,
  EXTRACTIVE_NOTICE,
  EXTRACTIVE_NOTICE_PATTERN,
  extractiveNotice,
} from './messages.js';
export {
  createModelRunner,
  GROUNDING_SYSTEM_PROMPT,
  groundingSystemPrompt,
  SEARCH_TOOL_NAME,
  NO_RESULTS_MESSAGE,
  RETRIEVAL_UNAVAILABLE_MESSAGE,
  MODEL_FAILURE_MESSAGE,
  type ModelRunnerOptions,
  type SearchToolResult,
} from './runners/model-runner.js';
export {
  createExtractiveRunner,
  type ExtractiveRunnerOptions,
} from './runners/extractive-runner.js';
export { selectSentences } from './runners/select-sentences.js';
export {
  questionSubject,
  type QuestionSubject,
  type QuestionForm,
} from './runners/question-subject.js';
export { splitSentences } from './runners/sentences.js';
export * from './loop/index.js';
