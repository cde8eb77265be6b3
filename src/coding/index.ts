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
export { type CodingRunState } from './coding-agent.js';
export {
  ApprovalAnswer,
  codingPermissionPolicy,
  createCodingAuthorizer,
  readClaudePermissions,
  reviewProjectSkill,
  reviewWorkspaceSettings,
  denyReadRules,
  CLAUDE_SETTINGS_FILES,
  type ApprovalRequest,
  type CodingAuthorizerOptions,
} from './coding-permissions.js';
export {
  startCodeRun,
  answerCodeRun,
  loadCodeSession,
  saveCodeSession,
  codeSessionRunId,
  CODE_SESSION_ID,
  CODE_SESSION_ID_RULE,
  noCodingRun,
  CODE_RUN_KIND,
  CODE_SESSION_KIND,
  AWAITING_APPROVAL,
  type RecordedCodeRun,
} from './coding-runs.js';
