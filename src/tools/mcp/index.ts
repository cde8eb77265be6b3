export {
  connectMcpServers,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  MAX_OFFERED_MCP_TOOLS,
  type McpClientPool,
  type McpRemoteTool,
  type McpServerStatus,
} from './mcp-client-pool.js';
export { mcpTools, mcpToolName, type McpTool, type McpToolPermission } from './mcp-tools.js';
export { boundedMcpFetch, MCP_MAX_MESSAGE_BYTES } from './bounded-fetch.js';
