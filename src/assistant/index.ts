export {
  createAssistant,
  ANSWER_RUN_KIND,
  type AnswerRunInput,
  type Assistant,
  type AssistantEvent,
  type AssistantOptions,
  type AskOptions,
  type Synthesiser,
  type TraceSink,
} from './assistant.js';
export { answerFailure } from './answer-failure.js';
export { mergeResponses, answerBody } from './merge-responses.js';
export { createContextSkill, type ContextSkill } from './context-skill.js';
export {
  openAssistant,
  type OpenedAssistant,
  type OpenAssistantOptions,
} from './open-assistant.js';
export {
  describeMode,
  modelPartsFor,
  EXTRACTIVE_MODE_DESCRIPTION,
  type ModelParts,
} from './model-parts.js';
export {
  createModelSynthesiser,
  SYNTHESIS_SYSTEM_PROMPT,
  type ModelSynthesiserOptions,
} from './model-synthesis.js';
export { routeEverythingToDefault, ROUTING_OFF_REASON } from './routing-switch.js';
export {
  knowledgeIsPrepared,
  knowledgeRouter,
  prepareKnowledge,
  type KnowledgeRouter,
} from './prepare-knowledge.js';
export {
  prebuildKnowledge,
  savePrebuiltKnowledge,
  startSavingPrebuiltKnowledge,
  type PrebuiltEntry,
  type PrebuiltKnowledge,
} from './prebuild-knowledge.js';
