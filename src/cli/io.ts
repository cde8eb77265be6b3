import { createInterface } from 'node:readline';
import type { CliIo } from './command.js';
import { terminalText } from './terminal-text.js';

/**
 * Ends the process quietly when the reader of stdout goes away (`cohort ask … | head -1`): the
 * output is no longer wanted, so an EPIPE is not an error worth a stack trace.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/**
 * The real terminal: process streams and environment. stdin is opened only when a command reads it
 * (so `cohort ask` never waits on it), and it reads every line from then on, buffering those that
 * arrive before the command is ready for them.
 */
export function processIo(): CliIo {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  let lines: AsyncIterable<string> | undefined;
  return {
    // What is printed comes from documents, the web and models: none of it may drive the terminal.
    stdout: (text) => void process.stdout.write(terminalText(text)),
    stderr: (text) => void process.stderr.write(terminalText(text)),
    control: (stream, sequence) => void process[stream].write(sequence),
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    // Made on first use: a line reader starts consuming stdin at once, which would take the
    // protocol messages away from `cohort mcp`'s stdio transport.
    get stdin() {
      lines ??= bufferedLines(process.stdin);
      return lines;
    },
  };
}

/**
 * Every line of `input`, read from the moment this is called (not from the first `next()`), ending
 * at end of input; leaving the loop early stops reading, so the process can exit.
 */
function bufferedLines(input: NodeJS.ReadStream): AsyncIterable<string> {
  const reader = createInterface({ input, terminal: false });
  const queue: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  reader.on('line', (line) => {
    queue.push(line);
    wake?.();
  });
  reader.on('close', () => {
    ended = true;
    wake?.();
  });
  const stop = () => {
    reader.close();
    input.pause();
    // A terminal's stdin keeps the process alive until it is let go.
    input.unref?.();
  };
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          if (queue.length > 0) {
            yield queue.shift() as string;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      } finally {
        stop();
      }
    },
  };
}
