export { createMcpServer, type McpServerParts } from './create-mcp-server.js';
export {
  cohortTools,
  toolError,
  INTERNAL_TOOL_ERROR,
  type CohortTool,
  type McpServedParts,
  type ToolCallContext,
} from './cohort-tools.js';
export {
  docUri,
  parseDocUri,
  listDocResources,
  readDocResource,
  DOCS_URI_TEMPLATE,
} from './doc-resources.js';
export { mcpRoutes, MCP_PATH } from './mcp-routes.js';
export { serveMcpStdio } from './serve-mcp-stdio.js';
export { wireJsonSchema, type ToolJsonSchema } from './tool-json-schema.js';
