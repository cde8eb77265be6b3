import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { storableText } from './storable-text.js';
import { testEngines } from '../test/test-engines.js';

// A model's answer or a tool's output (`cat` of a binary file, text with "\u0000" a model wrote)
// may hold a NUL character or an unpaired surrogate, which PostgreSQL's text and JSONB refuse:
// `/chat` and `/code` answered 500 ("invalid byte sequence for encoding UTF8: 0x00", "invalid
// input syntax for type json") and the answer's trace was dropped.
const UNSAFE = 'a\u0000b \ud800 c\udc00';
const STORED = 'a\ufffdb \ufffd c\ufffd';

describe('storableText', () => {
  it('replaces NUL characters and unpaired surrogates with U+FFFD and keeps pairs', () => {
    expect(storableText(UNSAFE)).toBe(STORED);
    expect(storableText('emoji 😀 stays')).toBe('emoji 😀 stays');
  });
});

for (const engine of testEngines()) {
  describe.skipIf(engine.skip)(`text no database can hold, on ${engine.name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(() => store.close());

    it('saves a turn whose answer holds it, the characters replaced', async () => {
      const session = randomUUID();
      await store.sessions.saveTurn(session, [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: UNSAFE, agentName: 'glossary' },
      ]);
      const history = await store.sessions.history(session, 10);
      expect(history.map((message) => message.content)).toEqual(['q', STORED]);
    });

    it('saves a run, its task and its trace whose values or keys hold it', async () => {
      const id = randomUUID();
      const value = { text: UNSAFE, list: [UNSAFE], [`key${UNSAFE}`]: 1 };
      const stored = { text: STORED, list: [STORED], [`key${STORED}`]: 1 };
      await store.runs.put({ id, kind: 'code', status: 'done', input: value, output: value });
      expect(await store.runs.get(id)).toMatchObject({ input: stored, output: stored });
      await store.runs.update(id, { status: 'done', output: [UNSAFE] });
      expect((await store.runs.get(id))?.output).toEqual([STORED]);
      await store.runs.saveTask({ runId: id, taskId: 't1', status: 'done', output: value });
      expect((await store.runs.tasks(id))[0]?.output).toEqual(stored);

      const traced = randomUUID();
      store.runs.recordTrace({ id: traced, kind: 'answer', status: 'done', input: value }, [
        {
          spanId: 's1',
          parentId: null,
          name: 'cohort.ask',
          startMs: 1,
          durationMs: 2,
          attributes: { 'gen_ai.completion': UNSAFE },
          status: 'error',
          error: UNSAFE,
        },
      ]);
      await store.runs.flushTraces();
      const spans = await store.runs.spans(traced);
      expect(spans.map((span) => [span.attributes['gen_ai.completion'], span.error])).toEqual([
        [STORED, STORED],
      ]);
    });
  });
}
