import type { CliIo } from '../cli/command.js';
import { main } from '../cli/main.js';

/**
 * Runs `cohort <argv>` in-process with captured output and an in-memory store, for CLI tests.
 *
 * @example
 * const { code, stdout } = await runCli(['route', 'What is a topic?']);
 */
export async function runCli(
  argv: string[],
  env: Record<string, string> = {},
  stdin?: string[],
  options: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: { COHORT_DATA_DIR: 'memory://', ...env },
    cwd: options.cwd ?? process.cwd(),
    isTTY: false,
    ...(stdin
      ? {
          stdin: (async function* () {
            yield* stdin;
          })(),
        }
      : {}),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
