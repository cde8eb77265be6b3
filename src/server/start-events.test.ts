import { describe, expect, it } from 'vitest';
import { resumeEvents, startEvents } from './start-events.js';

// A consumer that stops reading a started stream (a client gone from an SSE response) must close
// the stream it started, so the run behind it ends instead of waiting at a `yield` forever.

describe('resumeEvents', () => {
  it('yields the first item and the rest, then leaves the stream finished', async () => {
    let closed = false;
    async function* run() {
      try {
        yield 1;
        yield 2;
      } finally {
        closed = true;
      }
    }
    const items: number[] = [];
    for await (const item of resumeEvents(await startEvents(run()))) items.push(item);
    expect(items).toEqual([1, 2]);
    expect(closed).toBe(true);
  });

  it('closes the started stream when the consumer stops early', async () => {
    let closed = false;
    async function* run() {
      try {
        yield 'route';
        yield 'delta';
        yield 'done';
      } finally {
        closed = true;
      }
    }
    for await (const item of resumeEvents(await startEvents(run()))) {
      if (item === 'delta') break;
    }
    expect(closed).toBe(true);
  });
});
