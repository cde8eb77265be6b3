import { describe, expect, it } from 'vitest';
import { createSseParser, readSseEvents } from './sse-parser.js';

describe('createSseParser', () => {
  it('parses events split across chunks at any point', () => {
    const stream =
      'event: route\ndata: {"a":1}\n\n: comment\ndata: line one\ndata: line two\n\nevent: done\r\ndata: {}\r\n\r\n';
    for (const size of [1, 3, 7, stream.length]) {
      const parser = createSseParser();
      const events = [];
      for (let i = 0; i < stream.length; i += size)
        events.push(...parser.push(stream.slice(i, i + size)));
      expect(events).toEqual([
        { event: 'route', data: '{"a":1}' },
        { event: 'message', data: 'line one\nline two' },
        { event: 'done', data: '{}' },
      ]);
    }
  });

  it('holds back an event until its blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('event: delta\ndata: {"text":"Hi"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'delta', data: '{"text":"Hi"}' }]);
  });
});

describe('readSseEvents', () => {
  const body = (parts: string[], onCancel: () => void) =>
    new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      },
      cancel: onCancel,
    });

  it('yields the events of a body read in pieces, then cancels it when the loop is left early', async () => {
    let cancelled = false;
    const seen: string[] = [];
    const stream = body(['event: a\ndata: 1\n', '\nevent: b\nda', 'ta: 2\n\n'], () => {
      cancelled = true;
    });
    for await (const event of readSseEvents(stream)) {
      seen.push(`${event.event}=${event.data}`);
      if (event.event === 'b') break;
    }
    expect(seen).toEqual(['a=1', 'b=2']);
    expect(cancelled).toBe(true);
  });
});
