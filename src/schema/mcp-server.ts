import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * A server name: it becomes part of tool names (`mcp__<server>__<tool>`), so it holds no `__` and
 * does not end with `_`: the tools of "docs__admin" (`mcp__docs__admin__drop`) or of "docs_"
 * (`mcp__docs___drop`) would read as tools of "docs", and a rule allowing "mcp__docs" would let
 * them run without asking.
 */
export const McpServerName = lazySchema(() =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,64}$/,
      'an MCP server name is 1 to 64 letters, digits, "_" or "-" (it becomes part of tool names)',
    )
    .refine(
      (name) => !name.includes('__') && !name.endsWith('_'),
      'an MCP server name must not hold "__" nor end with "_": tools are named mcp__<server>__<tool>, and such a name would read as another server\'s (rename it, e.g. "docs-admin")',
    ),
);

/** A server started as a child process, spoken to over stdio (Claude Desktop / Claude Code shape). */
export const StdioMcpServer = lazySchema(() =>
  z.object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must name the program to start'),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
  }),
);

/** A server reached over streamable HTTP. */
export const HttpMcpServer = lazySchema(() =>
  z.object({
    type: z.enum(['http', 'streamable-http']).optional(),
    // Checked as a URL when connecting: it may hold `${VAR}` until the environment is read.
    url: z
      .string()
      .min(1, 'url must be the server\'s http(s) URL, e.g. "http://127.0.0.1:8787/mcp"'),
    headers: z.record(z.string(), z.string()).default({}),
  }),
);

/** One configured MCP server. */
export const McpServerConfig = lazySchema(() =>
  z.union([StdioMcpServer, HttpMcpServer], {
    error: 'an MCP server needs "command" (stdio) or "url" (streamable HTTP)',
  }),
);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The `mcpServers` map of `cohort.config.json` and `.mcp.json`. */
export const McpServers = lazySchema(() => z.record(McpServerName, McpServerConfig));
export type McpServers = z.infer<typeof McpServers>;
