import { packageVersion } from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import { serveMcpStdio } from '../../mcp/index.js';
import { createResearchDependencies } from '../../research/index.js';
import { createLogger } from '../../telemetry/index.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand } from '../command.js';
import { openForCli, STORE_FLAGS } from '../open.js';

const usage = 'cohort mcp [serve] [--data-dir DIR] [--config FILE]';

/**
 * `cohort mcp`: serves cohort's tools (ask, route, search_book, research, one per agent) and its
 * documents over MCP on stdio, for Claude Desktop, Claude Code or any MCP client. stdout carries
 * only protocol messages; progress and logs go to stderr.
 */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the assistant over MCP (stdio)',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { ...STORE_FLAGS }, usage);
    const [sub = 'serve', ...rest] = positionals;
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
      let research: ReturnType<typeof createResearchDependencies> | undefined;
      await serveMcpStdio({
        assistant: opened.assistant,
        store: opened.store,
        retriever: opened.retriever,
        version: packageVersion(),
        research: () =>
          (research ??= createResearchDependencies(opened.config, {
            store: opened.store,
            retriever: opened.retriever,
            logger,
          })),
      });
      return 0;
    } finally {
      await opened.close();
    }
  },
};
