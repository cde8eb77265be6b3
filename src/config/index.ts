export * from './config.js';
export * from './frontmatter.js';
export * from './user-cache.js';
export * from './yaml-cache.js';
export * from './permission-settings.js';
export * from './sandbox-settings.js';
export { packageVersion } from './package-version.js';
export { packagePath, packageRoot } from './package-root.js';
export { sourceUrlProblem, SOURCE_URL_PLACEHOLDER } from './source-url-template.js';
export { isPresent, readFoundFile, readUpTo } from './found-file.js';
export {
  NOT_UTF8_NAME,
  readFolderEntries,
  showName,
  undecodedPathProblem,
  type FolderEntry,
} from './folder-entries.js';
export { parseJsonFile } from './json-file.js';
export {
  PROTECTED_PROJECT_ENTRIES,
  protectedEntryOf,
  protectedLocationOf,
  type ProtectedProjectEntry,
} from './project-files.js';
export { OPEN_WITHOUT_WAITING, specialFileType } from './regular-file.js';
export {
  approveProjectMcpServers,
  mcpApprovalsPath,
  mcpServerCommandLine,
  mcpServerDigest,
  reviewProjectMcpServers,
  TRUST_PROJECT_MCP_ENV,
  type ProjectMcpReview,
  type ProjectMcpServer,
} from './mcp-approvals.js';
export {
  APPROVE_CONFIG_COMMAND,
  approveProjectConfig,
  configApprovalsPath,
  guardedSettings,
  reviewProjectConfig,
  TRUST_PROJECT_CONFIG_ENV,
  unapprovedConfigMessage,
  type GuardedSetting,
  type ProjectConfigReview,
} from './project-config-approvals.js';
export { MAX_CASES_FILE_BYTES, readCasesFile } from './cases-file.js';
