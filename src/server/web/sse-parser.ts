/** One Server-Sent Event: its `event:` name (default `message`) and its joined `data:` lines. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental Server-Sent Events parser: feed it text as it arrives (chunks may split lines
 * or events anywhere) and it returns the events completed so far.
 *
 * @example
 * const parser = createSseParser();
 * parser.push('event: delta\ndata: {"text":"Hi"}\n\n'); // [{ event: 'delta', data: '{"text":"Hi"}' }]
 */
export function createSseParser(): { push(text: string): SseEvent[] } {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return {
    push(text) {
      buffer += text;
      const out: SseEvent[] = [];
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
        if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
        const line = buffer.slice(0, newline);
        const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
        buffer = buffer.slice(newline + width);
        if (line === '') {
          if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n') });
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          if (field === 'data') data.push(value);
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      return out;
    },
  };
}

/**
 * Reads a Server-Sent Events body to its end, yielding each event as it completes. Leaving the
 * loop early (a `return` or a throw inside `for await`) cancels the body, so the request ends.
 *
 * @example
 * for await (const event of readSseEvents(response.body)) console.log(event.event, event.data);
 */
export async function* readSseEvents(body: ReadableStream<BufferSource>): AsyncGenerator<SseEvent> {
  const parser = createSseParser();
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      yield* parser.push(next.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
