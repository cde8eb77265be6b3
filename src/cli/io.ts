import { createInterface } from 'node:readline';
import type { CliIo } from './command.js';

/** The real terminal: process streams and environment. */
export function processIo(): CliIo {
  let stdin: AsyncIterable<string> | undefined;
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    // Made on first use: a line reader starts consuming stdin at once, which would take the
    // protocol messages away from `cohort mcp`'s stdio transport.
    get stdin() {
      return (stdin ??= createInterface({ input: process.stdin, terminal: false }));
    },
  };
}
