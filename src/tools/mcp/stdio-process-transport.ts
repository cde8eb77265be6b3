import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { nodeChildProcess } from '../../builtins/index.js';

/** How long a server has to exit by itself once its stdin is closed, then after SIGTERM. */
const EXIT_GRACE_MS = 2_000;
/** Characters of a server's stderr kept, the end of it, to say why it stopped. */
const STDERR_TAIL_CHARS = 2_000;

/** What starts one stdio MCP server. */
export interface StdioServerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** The SDK's transport interface, with the end of what the server wrote to stderr. */
export interface StdioProcessTransport extends Transport {
  /** The last {@link STDERR_TAIL_CHARS} characters of the server's stderr (read as it comes). */
  stderrTail(): string;
}

/**
 * A stdio transport to an MCP server that runs in a process group of its own, which is ended
 * whole when the connection closes. The SDK's `StdioClientTransport` signals only the process it
 * started: a server started through a wrapper (`sh -c …`, a launcher) left the wrapper's child
 * running with the other end of stdout, so cohort read its output for ever and `cohort mcp list`
 * never exited after reporting a server that did not answer. Its stderr is read as it comes (its
 * end kept, {@link StdioProcessTransport.stderrTail}), never left to fill the pipe. Messages are
 * read as the SDK does (one JSON line each, a line at most 10 MiB).
 *
 * @example
 * const transport = stdioProcessTransport({ command: 'npx', args: ['-y', 'server'], env, cwd });
 * await new Client({ name: 'cohort', version: '1' }).connect(transport);
 */
export function stdioProcessTransport(server: StdioServerCommand): StdioProcessTransport {
  const readBuffer = new ReadBuffer();
  let child: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';
  let exited = false;
  let closing: Promise<void> | undefined;
  const signalGroup = (signal: NodeJS.Signals) => {
    if (child?.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };

  const transport: StdioProcessTransport = {
    stderrTail: () => stderr,
    start: () =>
      new Promise<void>((resolve, reject) => {
        const started = nodeChildProcess().spawn(server.command, server.args, {
          env: server.env,
          cwd: server.cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          // A process group of its own, so close() reaches every process the server started.
          detached: true,
        });
        child = started;
        started.on('error', (error) => {
          // Not started at all (no such program): there is no process to wait for.
          if (started.pid === undefined) exited = true;
          reject(error);
          transport.onerror?.(error);
        });
        started.on('spawn', () => resolve());
        started.on('exit', () => {
          exited = true;
        });
        started.on('close', () => transport.onclose?.());
        started.stdin.on('error', (error) => transport.onerror?.(error));
        started.stdout.on('error', (error) => transport.onerror?.(error));
        started.stderr.on('error', () => undefined);
        started.stderr.setEncoding('utf8');
        started.stderr.on('data', (text: string) => {
          stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
        });
        started.stdout.on('data', (chunk: Buffer) => {
          try {
            readBuffer.append(chunk);
          } catch (error) {
            transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
            void transport.close();
            return;
          }
          for (;;) {
            let message: JSONRPCMessage | null;
            try {
              message = readBuffer.readMessage();
            } catch (error) {
              transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
              continue;
            }
            if (message === null) break;
            transport.onmessage?.(message);
          }
        });
      }),
    send: (message) =>
      new Promise<void>((resolve, reject) => {
        if (!child || closing) {
          reject(new Error('Not connected'));
          return;
        }
        if (child.stdin.write(serializeMessage(message))) resolve();
        else child.stdin.once('drain', () => resolve());
      }),
    close() {
      closing ??= (async () => {
        const running = child;
        if (!running) return;
        const ended = new Promise<void>((resolve) => {
          if (exited) resolve();
          else running.once('exit', () => resolve());
        });
        const within = (ms: number) =>
          Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
        running.stdin.end();
        // Nothing it says now is read: a server flooding stdout kept the event loop busy parsing.
        running.stdout.destroy();
        readBuffer.clear();
        await within(EXIT_GRACE_MS);
        // The group is signalled even when the server itself exited: what it started goes too.
        signalGroup('SIGTERM');
        if (!exited) await within(EXIT_GRACE_MS);
        signalGroup('SIGKILL');
        // A process that left the group (setsid) may still hold stderr: stop reading it.
        running.stderr.destroy();
      })();
      return closing;
    },
  };
  return transport;
}
