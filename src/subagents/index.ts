export {
  SubagentType,
  subagentModel,
  MODEL_ALIASES,
  SUBAGENT_NAME_PATTERN,
  type SubagentTypeInput,
} from './subagent-type.js';
export { builtinSubagentTypes } from './builtin-types.js';
export {
  parseSubagentFile,
  loadSubagentTypes,
  subagentDirs,
  type SubagentCatalog,
  type SubagentFileProblem,
} from './subagent-file.js';
export {
  SubagentReport,
  REPORT_INSTRUCTIONS,
  parseSubagentReport,
  capReport,
  estimateTokens,
} from './subagent-report.js';
export type { SubagentEvent, SubagentResult, SubagentStatus } from './subagent-events.js';
export { spawnSubagent, type PathRefusals, type SubagentEnvironment } from './spawn-subagent.js';
export { createTaskTool, taskToolOutput, TASK_TOOL_NAME } from './task-tool.js';
export {
  createSubagentTracker,
  isSubagentEvent,
  type SubagentRecord,
  type SubagentTracker,
} from './subagent-tracker.js';
export { renderSubagentTree, describeSubagent } from './subagent-tree.js';
