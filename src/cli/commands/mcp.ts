import {
  approveProjectMcpServers,
  MCP_JSON_FILE,
  mcpServerCommandLine,
  packageVersion,
  type ProjectMcpReview,
} from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import { serveMcpStdio } from '../../mcp/index.js';
import { openResearch, type OpenedResearch } from '../../research/index.js';
import { createLogger } from '../../telemetry/index.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand, CliIo } from '../command.js';
import { configAndMcpReview, openForCli, STORE_FLAGS } from '../open.js';
import { connectMcpServers, mcpToolName } from '../../tools/mcp/index.js';

const usage =
  'cohort mcp [serve | list [--json] | approve [NAME…] [--all]] [--data-dir DIR] [--config FILE]';

/** How a server of the configuration came to be trusted: the user's approval, or no need of one. */
type McpApproval = 'approved' | 'needs approval' | 'trusted' | 'user';

function approvalOf(review: ProjectMcpReview, name: string): McpApproval {
  const server = review.servers.find((candidate) => candidate.name === name);
  if (!server) return 'user';
  if (review.trusted) return 'trusted';
  return server.approved ? 'approved' : 'needs approval';
}

/**
 * `cohort mcp list`: connects to every configured MCP server the user approved and shows its
 * status and tools; a project server not approved is listed, not started.
 */
async function listServers(io: CliIo, values: Record<string, unknown>): Promise<number> {
  const { config, review } = configAndMcpReview(io, values);
  const unapproved = review.servers.filter((server) => !server.approved);
  if (Object.keys(config.mcpServers).length === 0 && unapproved.length === 0) {
    io.stdout(
      'No MCP servers configured. Add them under "mcpServers" in cohort.config.json or .mcp.json (command/args/env, or url/headers).\n',
    );
    return 0;
  }
  const pool = await connectMcpServers(config.mcpServers, { cwd: io.cwd });
  try {
    const statuses = [
      ...pool
        .statuses()
        .map((server) => ({ ...server, approval: approvalOf(review, server.name) })),
      ...unapproved.map((server) => ({
        name: server.name,
        transport: 'url' in (server.definition as object) ? 'http' : 'stdio',
        status: 'not started',
        approval: 'needs approval' as McpApproval,
        command: mcpServerCommandLine(server.definition),
        tools: [],
      })),
    ];
    if (values.json) {
      io.stdout(JSON.stringify({ servers: statuses }, null, 2) + '\n');
    } else {
      for (const server of statuses) {
        const error = 'error' in server && server.error ? ` — ${server.error}` : '';
        const hint =
          server.approval === 'needs approval'
            ? ` — approve with \`cohort mcp approve ${server.name}\``
            : '';
        io.stdout(
          `${server.name} (${server.transport}, ${server.approval}): ${server.status}${error}${hint}\n`,
        );
        for (const tool of server.tools)
          io.stdout(`  ${mcpToolName(server.name, tool.name)}  ${tool.description}\n`);
        // The server chose these names: quoted, so a newline in one cannot fake another line.
        for (const tool of 'skippedTools' in server ? (server.skippedTools ?? []) : [])
          io.stdout(`  not offered: ${JSON.stringify(shortened(tool.name))} — ${tool.reason}\n`);
      }
    }
    return statuses.every((server) => server.status === 'connected') ? 0 : 1;
  } finally {
    await pool.close();
  }
}

/** A name a server chose, cut to a length a listing can show. */
const shortened = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

/**
 * `cohort mcp approve [NAME…] [--all]`: shows the project's `.mcp.json` servers with the command
 * line each starts, and approves those named (or all): their definitions are recorded for this
 * folder in the user's approvals file, and a changed definition needs approval again.
 */
function approveServers(io: CliIo, values: Record<string, unknown>, names: string[]): number {
  const { config, review } = configAndMcpReview(io, values);
  if (review.servers.length === 0) {
    io.stdout(
      `No MCP servers in ${MCP_JSON_FILE} here to approve${Object.keys(config.mcpServers).length > 0 ? ' (those of cohort.config.json are approved with its other guarded settings, by `cohort config approve`)' : ''}.\n`,
    );
    return 0;
  }
  for (const name of names) {
    if (review.servers.some((server) => server.name === name)) continue;
    const known = review.servers.map((server) => server.name).join(', ');
    throw new CohortError(
      'invalid_input',
      Object.hasOwn(config.mcpServers, name)
        ? `"${name}" is a server of cohort.config.json, approved with that file's other guarded settings by \`cohort config approve\`; the servers of ${MCP_JSON_FILE} are ${known}.`
        : `No MCP server "${name}" in ${MCP_JSON_FILE}; its servers are ${known}.`,
    );
  }
  const chosen = values.all ? review.servers.map((server) => server.name) : names;
  for (const server of review.servers) {
    const state = chosen.includes(server.name)
      ? 'approving'
      : server.approved
        ? 'approved'
        : 'needs approval';
    io.stdout(`${server.name} (${state}): ${mcpServerCommandLine(server.definition)}\n`);
  }
  if (chosen.length === 0) {
    io.stdout(
      `Each starts on your machine, outside the sandbox, when cohort runs in ${review.project}. Approve with \`cohort mcp approve NAME…\` or \`cohort mcp approve --all\`.\n`,
    );
    return 0;
  }
  approveProjectMcpServers(review, chosen);
  io.stdout(
    `Approved ${chosen.map((name) => `"${name}"`).join(', ')} for ${review.project} (recorded in ${review.file}).\n`,
  );
  return 0;
}

/**
 * `cohort mcp`: serves cohort's tools (ask, route, search_book, research, one per agent) and its
 * documents over MCP on stdio, for Claude Desktop, Claude Code or any MCP client. stdout carries
 * only protocol messages; progress and logs go to stderr.
 */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary:
    "Serve the assistant over MCP (stdio); `cohort mcp list` shows the MCP servers it uses, `cohort mcp approve` approves a project's",
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, all: { type: 'boolean' }, ...STORE_FLAGS },
      usage,
    );
    const [sub = 'serve', ...rest] = positionals;
    if (sub === 'list' && rest.length === 0) return listServers(io, values);
    if (sub === 'approve') return approveServers(io, values, rest);
    if (sub !== 'serve' || rest.length > 0) {
      throw new CohortError(
        'invalid_input',
        `Unknown mcp command "${positionals.join(' ')}".\nUsage: ${usage}`,
      );
    }
    const opened = await openForCli(io, values);
    try {
      const logger = createLogger({
        level: opened.config.logLevel,
        write: (line) => io.stderr(line + '\n'),
      });
      let research: Promise<OpenedResearch> | undefined;
      await serveMcpStdio({
        assistant: opened.assistant,
        store: opened.store,
        retriever: opened.retriever,
        version: packageVersion(),
        research: async () =>
          (
            await (research ??= openResearch({
              config: opened.config,
              knowledgeBase: opened.knowledgeBase,
              logger,
            }))
          ).dependencies,
      });
      return 0;
    } finally {
      await opened.close();
    }
  },
};
