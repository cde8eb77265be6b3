import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a script's argument handling writes and how it stops (tests pass their own). */
export interface ScriptIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  exit: (code: number) => never;
}

const processIo: ScriptIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
};

/**
 * Node's `parseArgs` for a script run by hand (`npx tsx scripts/NAME.ts …`): `--help` or `-h`
 * prints the usage and exits 0, and an unknown flag, a flag without its value or a stray argument
 * prints what was wrong and the usage on stderr and exits 2. Node's own refusal was a stack trace
 * (`TypeError [ERR_PARSE_ARGS_UNKNOWN_OPTION]`) that showed no usage, and `--help` was one of them.
 *
 * @example
 * const { values } = scriptArgs({ options: { seed: { type: 'string', default: '1' } } },
 *   'npx tsx scripts/fuzz-http.ts [--seed 1]');
 */
export function scriptArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
  argv: string[] = process.argv.slice(2),
  io: ScriptIo = processIo,
): ReturnType<typeof parseArgs<T>> {
  // Only before `--`: after it, `--help` is an argument like any other.
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    io.stdout(`usage: ${usage}\n`);
    return io.exit(0);
  }
  try {
    const withArgs: T = { ...config, args: argv };
    return parseArgs(withArgs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`${message}\nusage: ${usage}\n`);
    return io.exit(2);
  }
}
