import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CohortError } from '../../errors/index.js';

/**
 * The most one message from an MCP server may hold, in bytes: an event of a server-sent event
 * stream, or a JSON body. The SDK reads stdio with the same cap (10 MiB a line); over HTTP it had
 * none, and a remote server that never ended its answer grew cohort's memory until it died.
 */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * A body stream that fails once `limit` bytes pass without a message ending: for an event stream a
 * blank line ends an event (`\n\n`, `\r\n\r\n`), so a long-lived stream of many events goes on;
 * any other body is one message, bounded whole.
 */
function boundedBody(
  body: ReadableStream<Uint8Array>,
  events: boolean,
  limit: number,
  tooLarge: () => Error,
): ReadableStream<Uint8Array> {
  let sinceEnd = 0;
  let afterNewline = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!events) sinceEnd += chunk.length;
        else
          for (const byte of chunk) {
            if (byte === LF) {
              if (afterNewline) sinceEnd = 0;
              afterNewline = true;
            } else if (byte !== CR) afterNewline = false;
            sinceEnd += 1;
            if (sinceEnd > limit) break;
          }
        if (sinceEnd > limit) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * A fetch for the MCP SDK's HTTP transport whose response bodies fail (and stop being read) once
 * one message passes {@link MCP_MAX_MESSAGE_BYTES}, with an error naming the server, which
 * `onTooLarge` is told of too.
 *
 * @example
 * new StreamableHTTPClientTransport(url, { fetch: boundedMcpFetch('docs') });
 */
export function boundedMcpFetch(
  server: string,
  options: {
    limit?: number;
    fetch?: FetchLike;
    /**
     * Told of each message cut. The SDK reports a broken event stream only to `onerror` and
     * leaves the request it answers waiting, so the caller closes the connection here.
     */
    onTooLarge?: (error: CohortError) => void;
  } = {},
): FetchLike {
  const limit = options.limit ?? MCP_MAX_MESSAGE_BYTES;
  const inner = options.fetch ?? fetch;
  const tooLarge = () => {
    const error = new CohortError(
      'model_unavailable',
      `The MCP server "${server}" sent more than ${limit / 1024 / 1024} MiB in one message without ending it; cohort stopped reading it.`,
    );
    options.onTooLarge?.(error);
    return error;
  };
  return async (url, init) => {
    const response = await inner(url, init);
    if (!response.body) return response;
    const events = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    return new Response(boundedBody(response.body, events, limit, tooLarge), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
