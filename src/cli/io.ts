import { createInterface } from 'node:readline';
import type { CliIo } from './command.js';

/** The real terminal: process streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    stdin: createInterface({ input: process.stdin, terminal: false }),
  };
}
