export {
  toolFailure,
  unwrapOutcome,
  type CohortTool,
  type ToolCallOptions,
  type ToolFailure,
  type ToolOutcome,
} from './tool.js';
export { createWorkspace, type Workspace } from './workspace.js';
export { truncateText, DEFAULT_MAX_OUTPUT_CHARS } from './truncate-text.js';
export { kernelPathOfSync, refuseHardLinked } from './opened-file.js';
export { createGlobTool, type GlobResult } from './glob-tool.js';
export { createGrepTool, type GrepMatch, type GrepResult } from './grep-tool.js';
export { createReadTool, type ReadResult } from './read-tool.js';
export { createWriteTool, createWriteDocTool, type WriteResult } from './write-tool.js';
export { createEditTool, type EditResult } from './edit-tool.js';
export { createBashTool, type BashResult } from './bash-tool.js';
export {
  tavilySearch,
  WebSearchHit,
  DEFAULT_TAVILY_BASE_URL,
  type TavilySearchOptions,
  type WebSearchOutcome,
  type WebSearchSuccess,
} from './tavily.js';
export { createWebSearchTool } from './web-search-tool.js';
export { htmlToText, type ReadablePage } from './html-to-text.js';
export {
  isPrivateAddress,
  assertPublicUrl,
  createGuardedLookup,
  systemLookup,
  type HostLookup,
} from './network-guard.js';
export {
  fetchReadable,
  createWebFetchTool,
  type WebFetchOptions,
  type WebFetchResult,
} from './web-fetch-tool.js';
export { arxivSearch } from './arxiv.js';
export { semanticScholarSearch } from './semantic-scholar.js';
export * from './permissions/index.js';
