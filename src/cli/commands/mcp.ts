import { packageVersion } from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import { serveMcpStdio } from '../../mcp/index.js';
import { openResearch, type OpenedResearch } from '../../research/index.js';
import { createLogger } from '../../telemetry/index.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand, CliIo } from '../command.js';
import { configFor, openForCli, STORE_FLAGS } from '../open.js';
import { connectMcpServers, mcpToolName } from '../../tools/mcp/index.js';

const usage = 'cohort mcp [serve | list [--json]] [--data-dir DIR] [--config FILE]';

/** `cohort mcp list`: connects to every configured MCP server and shows its status and tools. */
async function listServers(io: CliIo, values: Record<string, unknown>): Promise<number> {
  const config = configFor(io, values);
  const servers = Object.keys(config.mcpServers);
  if (servers.length === 0) {
    io.stdout(
      'No MCP servers configured. Add them under "mcpServers" in cohort.config.json or .mcp.json (command/args/env, or url/headers).\n',
    );
    return 0;
  }
  const pool = await connectMcpServers(config.mcpServers, { cwd: io.cwd });
  try {
    const statuses = pool.statuses();
    if (values.json) {
      io.stdout(JSON.stringify({ servers: statuses }, null, 2) + '\n');
    } else {
      for (const server of statuses) {
        io.stdout(
          `${server.name} (${server.transport}): ${server.status}${server.error ? ` — ${server.error}` : ''}\n`,
        );
        for (const tool of server.tools)
          io.stdout(`  ${mcpToolName(server.name, tool.name)}  ${tool.description}\n`);
      }
    }
    return statuses.every((server) => server.status === 'connected') ? 0 : 1;
  } finally {
    await pool.close();
  }
}

/**
 * `cohort mcp`: serves cohort's tools (ask, route, search_book, research, one per agent) and its
 * documents over MCP on stdio, for Claude Desktop, Claude Code or any MCP client. stdout carries
 * only protocol messages; progress and logs go to stderr.
 */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the assistant over MCP (stdio); `cohort mcp list` shows the MCP servers it uses',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, ...STORE_FLAGS },
      usage,
    );
    const [sub = 'serve', ...rest] = positionals;
    if (sub === 'list' && rest.length === 0) return listServers(io, values);
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
