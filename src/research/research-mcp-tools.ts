import { defineTool, type LoopTool } from '../agents/loop/index.js';
import { hasModel, type CohortConfig } from '../config/index.js';
import {
  checkPermission,
  createPermissionPolicy,
  type PermissionPolicy,
} from '../tools/permissions/index.js';
import type { McpClientPool } from '../tools/mcp/index.js';
import type { Logger } from '../telemetry/index.js';

/** The configured MCP servers' tools for research subagents, and how to let the servers go. */
export interface ResearchMcpTools {
  tools: LoopTool[];
  close(): Promise<void>;
}

/**
 * Why the permission rules keep a research subagent from calling `tool`, or undefined when they
 * allow it. The rules are the `permissions` of the configuration, read as the coding assistant
 * reads them (`mcp__<server>`, `mcp__<server>__<tool>`); a call they would ask a person about is
 * refused, as for the coding assistant's subagents: a research run has nobody to ask.
 */
export function researchToolRefusal(
  policy: PermissionPolicy,
  tool: string,
  input: unknown,
  workspace: string,
): string | undefined {
  const decision = checkPermission(policy, { tool, input }, { workspace });
  if (decision.behavior === 'allow') return undefined;
  if (decision.behavior === 'deny') return `Permission denied: ${decision.reason}`;
  return `Permission needed: ${decision.reason}; a research subagent cannot ask a person. Add "${tool}" to permissions.allow to let research use it.`;
}

/**
 * Connects the configured `mcpServers` for research (model mode only; nothing is started in
 * extractive mode or with no servers) and returns the tools the permission rules allow, named
 * `mcp__<server>__<tool>`. A server that fails to start is logged and left out.
 *
 * @example
 * const mcp = await connectResearchMcpTools(config, { logger });
 * const result = await runResearch(question, { ...dependencies, tools: mcp?.tools });
 * await mcp?.close();
 */
export async function connectResearchMcpTools(
  config: CohortConfig,
  options: { logger?: Logger; workspace?: string } = {},
): Promise<ResearchMcpTools | undefined> {
  if (!hasModel(config) || Object.keys(config.mcpServers).length === 0) return undefined;
  const workspace = options.workspace ?? process.cwd();
  // The MCP client loads only when servers are configured.
  const mcp = await import('../tools/mcp/index.js');
  const pool: McpClientPool = await mcp.connectMcpServers(config.mcpServers, {
    cwd: workspace,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const policy = createPermissionPolicy([config.permissions]);
  const permit = (tool: string, input: unknown) =>
    researchToolRefusal(policy, tool, input, workspace);
  // Only tools the rules allow are offered; `permit` still checks every call with its input.
  const tools = mcp
    .mcpTools(pool, { permit })
    .filter((tool) => permit(tool.name, {}) === undefined)
    .map((tool) => defineTool(tool));
  return { tools, close: () => pool.close() };
}
