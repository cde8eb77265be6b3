export {
  CLAUDE_TOOL_NAMES,
  parsePermissionRule,
  splitToolList,
  toolsOfRule,
  ruleCoversTool,
  type PermissionRule,
} from './permission-rule.js';
export { splitShellCommand, writesFiles } from './shell-command.js';
export {
  commandMatches,
  pathMatches,
  ruleMatches,
  type PermissionCall,
  type PermissionContext,
} from './match-rule.js';
export {
  checkPermission,
  createPermissionPolicy,
  alwaysRule,
  rulesAllow,
  type PermissionDecision,
  type PermissionPolicy,
} from './check-permission.js';
export {
  coversReal,
  leavesScope,
  PATH_VERB_TOOLS,
  toolRestriction,
  type ToolRestriction,
} from './tool-restriction.js';
export { reachedPath } from './reached-path.js';
