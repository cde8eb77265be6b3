import { Transform, type Readable, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { duplicateKeyMessage, findDuplicateKey } from '../schema/index.js';
import { createMcpServer, type McpServerParts } from './create-mcp-server.js';
import { DrainingTransport } from './draining-transport.js';

/**
 * How long `cohort mcp` goes on with the calls in flight once stdin has closed (2 minutes): each
 * is answered when it finishes, and one still running then is answered with a JSON-RPC error.
 */
export const STDIN_CLOSED_GRACE_MS = 120_000;

/** How long the answers to calls still running at stdin's close may wait to be written. */
const REFUSAL_WRITE_MS = 5_000;

/**
 * The JSON-RPC error for a line of stdin that is not a message: -32700 when it is not JSON,
 * -32600 when it is JSON but not a JSON-RPC 2.0 message; undefined for any other error. The SDK's
 * transport reports such lines only to `onerror`, so without this a client that sent one would
 * wait for an answer that never comes (JSON-RPC 2.0 §5.1 asks for an error with `id: null`).
 */
export function malformedLineReply(error: Error): object | undefined {
  const invalid =
    error instanceof SyntaxError
      ? {
          code: -32700,
          message: `Parse error: each line must be one JSON message (${error.message}).`,
        }
      : error.name === 'ZodError' || error.message.startsWith('Unknown message type')
        ? {
            code: -32600,
            message:
              'Invalid Request: not a JSON-RPC 2.0 message (send {"jsonrpc": "2.0", "id", "method", "params"} on one line).',
          }
        : undefined;
  return invalid && { jsonrpc: '2.0', id: null, error: invalid };
}

/**
 * The JSON-RPC error for a line that gives a key of one object twice
 * (`{"method": "ping", "method": "tools/list"}`), or undefined: JSON.parse would keep the last
 * value without a word, where the REST API and `POST /mcp` refuse such a message.
 */
export function duplicateKeyReply(line: string): object | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined; // The SDK answers text that is not JSON (see malformedLineReply).
  }
  const duplicate = findDuplicateKey(line, parsed);
  return (
    duplicate && {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: the line gives ${duplicateKeyMessage(duplicate)}: give each key of an object once.`,
      },
    }
  );
}

/** The longest line the SDK's stdio transport reads (its read buffer, 10 MiB). */
export const MAX_STDIO_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1;

/** The JSON-RPC error for a line over {@link MAX_STDIO_LINE_BYTES}, which is not read. */
const tooLongReply = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32600,
    message: `Invalid Request: a line (one message) is at most ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes; this one was longer and was not read.`,
  },
};

/**
 * stdin as lines for the SDK's transport, one chunk per line: a line that gives a key twice is
 * taken out and answered on `stdout` (see {@link duplicateKeyReply}), and so is a line over
 * {@link MAX_STDIO_LINE_BYTES} (dropped as it arrives, not held). The transport reads into one
 * 10 MiB buffer and, when a chunk overflows it, drops the whole buffer without an answer: lines
 * passed together (three 4 MB messages in one write) were all lost, with any line after them.
 */
function withoutDuplicateKeys(stdin: Readable, stdout: Writable): Readable {
  // The start of the line not ended yet, in the pieces it came in, and its size: each chunk is
  // searched and measured alone. Searching and measuring the whole line held so far at every
  // chunk cost about half a second of CPU per MB of a long line (the event loop blocked).
  let pending: string[] = [];
  let pendingBytes = 0;
  // The line under way passed MAX_STDIO_LINE_BYTES: the rest of it is dropped as it arrives.
  let dropping = false;
  // A chunk may end inside a character (a pipe hands over 64 KiB at a time): the decoder keeps its
  // first bytes for the next chunk, where `chunk.toString()` made each half a U+FFFD.
  const decoder = new StringDecoder('utf8');
  const lines = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        const piece = text.slice(start, end);
        start = end + 1;
        const line = pending.length > 0 ? pending.join('') + piece : piece;
        const tooLong = dropping || pendingBytes + Buffer.byteLength(piece) > MAX_STDIO_LINE_BYTES;
        pending = [];
        pendingBytes = 0;
        dropping = false;
        if (tooLong) {
          stdout.write(`${JSON.stringify(tooLongReply)}\n`);
          continue;
        }
        const reply = line.includes('"') ? duplicateKeyReply(line) : undefined;
        if (reply) stdout.write(`${JSON.stringify(reply)}\n`);
        else this.push(`${line}\n`);
      }
      const rest = start === 0 ? text : text.slice(start);
      if (!dropping && rest !== '') {
        pending.push(rest);
        pendingBytes += Buffer.byteLength(rest);
        if (pendingBytes > MAX_STDIO_LINE_BYTES) {
          dropping = true;
          pending = [];
          pendingBytes = 0;
        }
      }
      done();
    },
    flush(done) {
      done(null, dropping ? decoder.end() : pending.join('') + decoder.end());
    },
  });
  stdin.on('error', (error) => lines.destroy(error));
  return stdin.pipe(lines);
}

/**
 * Serves cohort's MCP server over stdio (what Claude Desktop and Claude Code start) and resolves
 * when the client closes the connection. stdout carries only protocol messages; logs go to stderr.
 * A line that is not a JSON-RPC message gets a JSON-RPC error, and the server goes on. When stdin
 * closes, the calls in flight are still answered (for at most `graceMs`, default
 * {@link STDIN_CLOSED_GRACE_MS}; one running past it gets a JSON-RPC error) before it resolves.
 *
 * @example
 * await serveMcpStdio({ assistant, retriever, store });
 */
export async function serveMcpStdio(
  parts: McpServerParts,
  streams: {
    stdin?: Readable;
    stdout?: Writable;
    stderr?: Writable;
    graceMs?: number;
    refusalWriteMs?: number;
  } = {},
): Promise<void> {
  const server = createMcpServer(parts);
  const stdout = streams.stdout ?? process.stdout;
  const stdin = streams.stdin ?? process.stdin;
  const lines = withoutDuplicateKeys(stdin, stdout);
  const transport = new DrainingTransport(new StdioServerTransport(lines, stdout));
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  server.server.onerror = (error) => {
    const reply = malformedLineReply(error);
    if (reply) stdout.write(`${JSON.stringify(reply)}\n`);
    else (streams.stderr ?? process.stderr).write(`cohort mcp: ${error.message}\n`);
  };
  await server.connect(transport);
  // stdin ending (or failing) is the client hanging up; the lines' end comes after the last line
  // has reached the server, so every request sent is counted as in flight.
  let hungUp = false;
  const hangUp = async () => {
    if (hungUp) return;
    hungUp = true;
    const graceMs = streams.graceMs ?? STDIN_CLOSED_GRACE_MS;
    const unanswered = await transport.drain(graceMs);
    // A client that has stopped reading stdout never takes these answers: the write would wait
    // for the pipe to drain for ever and the process would never exit, so it waits a while only.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      transport.refuse(
        unanswered,
        `cohort mcp: stdin closed and this call did not finish within ${graceMs / 1000} s; it was stopped.`,
      ),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, streams.refusalWriteMs ?? REFUSAL_WRITE_MS);
      }),
    ]);
    clearTimeout(timer);
    await server.close();
  };
  lines.once('end', () => void hangUp());
  lines.once('error', () => void hangUp());
  await closed;
}
