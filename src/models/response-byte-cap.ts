import { CohortError, formatNumber } from '../errors/index.js';

/** A fetch implementation; tests and proxies pass their own. */
export type FetchFunction = typeof globalThis.fetch;

/**
 * Most characters one model call may produce (text, reasoning and tool arguments together) before
 * the agent loop stops reading it. Far above any model's output limit (128k tokens is about
 * 500,000 characters), so only an endpoint that streams without end, hostile or broken, reaches it.
 */
export const MAX_MODEL_OUTPUT_CHARS = 1_000_000;

/**
 * Most bytes cohort reads of one model response: of a whole JSON body, or of one event of a
 * streamed (server-sent events) response, the unit the AI SDK holds in memory before parsing it.
 * Eight bytes a character of {@link MAX_MODEL_OUTPUT_CHARS}: the whole output in one body or event
 * with every character escaped (`\u00e9` is 6 bytes, 7 inside a tool call's JSON arguments), plus
 * room for the JSON around it. A response that does not end within it is cut: memory stays bounded
 * whatever the endpoint sends (one endless line took cohort to 3 GB and out of memory).
 */
export const MAX_MODEL_RESPONSE_BYTES = 8 * MAX_MODEL_OUTPUT_CHARS;

/** Responses that never have a body (a `Response` refuses one for them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps `fetch` so that reading a response stops with a `model_unavailable` error once it passes
 * `maxBytes`: the whole body of a JSON response, or one event (the bytes up to a blank line) of an
 * event stream, whose events are parsed and dropped one at a time. Counting raw bytes, before
 * any decoding, also bounds a line that never ends, which no parsed-text count sees.
 *
 * @example
 * const openai = createOpenAI({ apiKey, fetch: capResponseBytes(globalThis.fetch) });
 */
export function capResponseBytes(
  fetch: FetchFunction,
  maxBytes: number = MAX_MODEL_RESPONSE_BYTES,
): FetchFunction {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const eventStream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const count = eventStream ? eventByteCounter() : bodyByteCounter();
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          // Erroring this side cancels the body, which closes the connection.
          if (count(chunk) > maxBytes) controller.error(responseTooLarge(maxBytes, eventStream));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Bytes of the body so far. */
function bodyByteCounter(): (chunk: Uint8Array) => number {
  let total = 0;
  return (chunk) => (total += chunk.length);
}

/**
 * Bytes of the event being read so far: counted from the last blank line (`\n\n`, `\r\n\r\n`).
 * A stream that ends its lines with a lone `\r` is counted as one event, which errs on the side
 * of stopping.
 */
function eventByteCounter(): (chunk: Uint8Array) => number {
  const LF = 10;
  const CR = 13;
  let event = 0; // bytes of the event's finished lines
  let line = 0; // bytes of the line being read, without its LF
  let lineIsCr = false; // that line is a lone CR so far (a blank line of a CRLF stream)
  const extendLine = (chunk: Uint8Array, from: number, bytes: number) => {
    if (bytes === 0) return;
    lineIsCr = line === 0 && bytes === 1 && chunk[from] === CR;
    line += bytes;
  };
  return (chunk) => {
    let from = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, from)) {
      extendLine(chunk, from, lf - from);
      const blank = line === 0 || (line === 1 && lineIsCr);
      event = blank ? 0 : event + line + 1;
      line = 0;
      lineIsCr = false;
      from = lf + 1;
    }
    extendLine(chunk, from, chunk.length - from);
    return event + line;
  };
}

function responseTooLarge(maxBytes: number, eventStream: boolean): CohortError {
  const where = eventStream ? ' in one event of its stream' : '';
  return new CohortError(
    'model_unavailable',
    `The model's response exceeded ${formatNumber(maxBytes)} bytes${where} without ending; cohort stopped reading it. Check the model server (OPENAI_BASE_URL).`,
  );
}
