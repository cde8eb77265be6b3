export {
  runCodingAgent,
  CODING_AGENT_PROMPT,
  SKILL_RESOURCE_TOOL_NAME,
  type CodingAgentEvent,
  type CodingAgentOptions,
  type CodingAgentResult,
} from './coding-agent.js';
export { createCodingTools, CODING_TOOL_NAMES } from './coding-tools.js';
export {
  openCoding,
  CODING_NEEDS_MODEL,
  type OpenedCoding,
  type CodingRunOptions,
} from './open-coding.js';
