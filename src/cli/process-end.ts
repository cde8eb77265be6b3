/**
 * Commands whose process is ended with `process.exit` once `main` returns and the output is
 * written, instead of by Node once nothing is left to run. Node's own ending frees the JavaScript
 * heap page by page first (V8 disposing of its isolate), which `process.exit` skips: after a
 * `cohort ingest` of the ROS 2 docs into a new folder (a heap near 100 MB, 290 MB resident) that
 * was 125–150 ms from the `exit` event to the process's end, against 77–92 ms (six runs each,
 * docs/measured.md, issue 12's eighth ingest round). `ingest` has closed its store, released its
 * lock and awaited its saves when it returns, so nothing of it is left to run.
 * Commands that may leave work running past their return (a server, a chat, an MCP transport)
 * end as Node ends them.
 */
export const ENDED_AT_RETURN: ReadonlySet<string> = new Set(['ingest']);

/** The part of `process` that ending it uses (a test passes its own). */
export interface EndableProcess {
  exitCode?: number | string | null | undefined;
  stdout: Pick<NodeJS.WritableStream, 'write'>;
  stderr: Pick<NodeJS.WritableStream, 'write'>;
  exit(code: number): never | void;
}

/**
 * Sets the exit code of `cohort <command>`; for one of {@link ENDED_AT_RETURN}, ends the process
 * once stdout and stderr have written what they were given (a pipe's writes can still be queued).
 *
 * @example
 * await endProcess(process.argv[2], await main(process.argv.slice(2)));
 */
export async function endProcess(
  command: string | undefined,
  code: number,
  proc: EndableProcess = process,
): Promise<void> {
  proc.exitCode = code;
  if (command === undefined || !ENDED_AT_RETURN.has(command)) return;
  await Promise.all([written(proc.stdout), written(proc.stderr)]);
  proc.exit(code);
}

/** Settles once `stream` has written everything given to it before (an empty write, in order). */
const written = (stream: Pick<NodeJS.WritableStream, 'write'>) =>
  new Promise<void>((resolve) => {
    stream.write('', () => resolve());
  });
