export {
  createAssistant,
  type Assistant,
  type AssistantEvent,
  type AssistantOptions,
  type Synthesiser,
} from './assistant.js';
export { mergeResponses, mergeCitations, renumberMarkers, answerBody } from './merge-responses.js';
export { createContextSkill, type ContextSkill } from './context-skill.js';
export {
  openAssistant,
  describeMode,
  EXTRACTIVE_MODE_DESCRIPTION,
  SAMPLE_BOOK_DIR,
  type OpenedAssistant,
  type ModelParts,
} from './open-assistant.js';
export {
  createModelSynthesiser,
  modelPartsFor,
  SYNTHESIS_SYSTEM_PROMPT,
  type ModelSynthesiserOptions,
} from './model-synthesis.js';
export { routeEverythingToDefault, ROUTING_OFF_REASON } from './routing-switch.js';
