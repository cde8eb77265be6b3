import { isCohortError } from '../errors/index.js';
import type { CliCommand, CliIo } from './command.js';
import { agentsCommand } from './commands/agents.js';
import { askCommand } from './commands/ask.js';
import { chatCommand } from './commands/chat.js';
import { codeCommand } from './commands/code.js';
import { evalCommand } from './commands/eval.js';
import { ingestCommand } from './commands/ingest.js';
import { mcpCommand } from './commands/mcp.js';
import { researchCommand } from './commands/research.js';
import { routeCommand } from './commands/route.js';
import { serveCommand } from './commands/serve.js';
import { skillsCommand } from './commands/skills.js';
import { processIo } from './io.js';

/** Every `cohort` subcommand, in help order. */
export const COMMANDS: readonly CliCommand[] = [
  askCommand,
  chatCommand,
  routeCommand,
  agentsCommand,
  ingestCommand,
  evalCommand,
  serveCommand,
  researchCommand,
  skillsCommand,
  codeCommand,
  mcpCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'cohort — assistants built from specialised subagents',
    '',
    'Usage: cohort <command> [options]',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `cohort <command> --help` for a command's options.",
  ].join('\n');
}

/** Exit codes: 0 success, 1 failure while running, 2 bad input or usage. */
const exitCodeFor = (error: unknown) =>
  isCohortError(error, 'invalid_input') || isCohortError(error, 'not_found') ? 2 : 1;

/**
 * Runs the `cohort` command line and returns the exit code. Errors are printed as one actionable
 * line; a stack trace only with COHORT_DEBUG=1.
 *
 * @example
 * process.exitCode = await main(['ask', 'What is a ROS 2 topic?']);
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(help() + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`Unknown command "${name}".\n\n${help()}\n`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${command.summary}\n\nUsage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (isCohortError(error)) {
      io.stderr(`cohort ${name}: ${error.message}\n`);
      if (io.env.COHORT_DEBUG === '1' && error.stack) io.stderr(error.stack + '\n');
      return exitCodeFor(error);
    }
    io.stderr(
      `cohort ${name}: unexpected error: ${error instanceof Error ? (io.env.COHORT_DEBUG === '1' ? error.stack : error.message) : String(error)}\n`,
    );
    return 1;
  }
}
