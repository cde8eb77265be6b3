import { packageVersion } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { storeFaultError } from '../store/store-fault.js';
import { shutdownTracing } from '../telemetry/index.js';
import type { CliCommand, CliIo } from './command.js';
import { processIo } from './io.js';
import { useCliRegexpSettings } from './regexp-settings.js';
import { useCliTieringSettings } from './tiering-settings.js';

export { endProcess } from './process-end.js';

/**
 * Every `cohort` subcommand, in help order, each loaded only when it runs: `cohort ask` must not
 * pay for the server, the research graph or the coding assistant (see lazy-commands.test.ts).
 */
export const COMMANDS: Readonly<Record<string, () => Promise<CliCommand>>> = {
  ask: async () => (await import('./commands/ask.js')).askCommand,
  chat: async () => (await import('./commands/chat.js')).chatCommand,
  route: async () => (await import('./commands/route.js')).routeCommand,
  agents: async () => (await import('./commands/agents.js')).agentsCommand,
  ingest: async () => (await import('./commands/ingest.js')).ingestCommand,
  eval: async () => (await import('./commands/eval.js')).evalCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  research: async () => (await import('./commands/research.js')).researchCommand,
  skills: async () => (await import('./commands/skills.js')).skillsCommand,
  code: async () => (await import('./commands/code.js')).codeCommand,
  mcp: async () => (await import('./commands/mcp.js')).mcpCommand,
  config: async () => (await import('./commands/config.js')).configCommand,
};

/** The full help: loads every command for its summary (help is rare; a command run loads one). */
async function help(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'cohort — assistants built from specialised subagents',
    '',
    'Usage: cohort <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `cohort <command> --help` for a command's options; `cohort --version` for the version.",
  ].join('\n');
}

/** Distinct warnings remembered; past this many a warning may print again rather than grow the set. */
const MAX_REMEMBERED_WARNINGS = 256;

/**
 * Sends the AI SDK's warnings to stderr: by default it prints them with `console.info`/`warn`,
 * and a line on stdout breaks the output of `--json` commands. Each distinct warning prints once
 * per process: the SDK repeats it on every call (an OpenAI-compatible server's "JSON response
 * format schema is only supported with structuredOutputs" came once per request, flooding
 * `cohort serve`'s log).
 */
function modelWarningsToStderr(io: CliIo): void {
  const printed = new Set<string>();
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    for (const warning of warnings) {
      const line = `Model warning (${provider} ${model}): ${JSON.stringify(warning)}\n`;
      if (printed.has(line)) continue;
      if (printed.size >= MAX_REMEMBERED_WARNINGS) printed.clear();
      printed.add(line);
      io.stderr(line);
    }
  };
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
    io.stdout((await help()) + '\n');
    return name ? 0 : 2;
  }
  modelWarningsToStderr(io);
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`cohort ${packageVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`Unknown command "${name}".\n\n${await help()}\n`);
    return 2;
  }
  // Before the command's modules run any expression (see regexp-settings.ts).
  useCliRegexpSettings();
  // Before the command's modules run, so that they count under it too (see tiering-settings.ts).
  useCliTieringSettings(name);
  const command = await load();
  // After `--` every word is an argument: `cohort ask -- "--help"` asks about "--help".
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    io.stdout(`${command.summary}\n\nUsage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    return report(error, name, io);
  } finally {
    // Exports the spans still buffered before a short command exits.
    await shutdownTracing();
  }
}

/** Prints a command's failure as one actionable line and returns its exit code. */
function report(error: unknown, name: string, io: CliIo): number {
  const damaged = storeFaultError(error);
  if (damaged) return report(damaged, name, io);
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
