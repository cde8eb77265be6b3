import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { decodeLexicalIndex, encodeLexicalIndex } from './lexical-index-bytes.js';
import { buildLexicalIndexData, DEFAULT_FIELD_WEIGHTS } from './lexical-index.js';

const { chunks } = prepareDocument(
  'course.md',
  `# Course\n\n## Jetson Boards\n\nThe Jetson Orin Nano runs neural networks at the edge.\n\n## Topics\n\nTopics carry messages from publishers to subscribers.\n`,
);

describe('encodeLexicalIndex / decodeLexicalIndex', () => {
  for (const bigrams of [false, true]) {
    it(`gives back the same arrays (bigrams ${bigrams})`, () => {
      const data = buildLexicalIndexData(chunks, { fields: DEFAULT_FIELD_WEIGHTS, bigrams });
      const decoded = decodeLexicalIndex(encodeLexicalIndex(data), chunks.length);
      expect(decoded).toEqual(data);
    });
  }

  it('reads bytes at any offset of a larger buffer (as a database driver returns them)', () => {
    const data = buildLexicalIndexData(chunks);
    const bytes = encodeLexicalIndex(data);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(decodeLexicalIndex(padded.subarray(3), chunks.length)).toEqual(data);
    // A Node Buffer, whose slice() is a view into a larger pool.
    const pooled = Buffer.concat([Buffer.from([9, 9, 9]), Buffer.from(bytes)]).subarray(3);
    expect(decodeLexicalIndex(pooled, chunks.length)).toEqual(data);
  });

  it('refuses bytes that are not a whole index over that many chunks', () => {
    const bytes = encodeLexicalIndex(buildLexicalIndexData(chunks));
    expect(decodeLexicalIndex(bytes, chunks.length + 1)).toBeUndefined();
    expect(decodeLexicalIndex(bytes.subarray(0, bytes.length - 16), chunks.length)).toBeUndefined();
    expect(decodeLexicalIndex(new Uint8Array([1, 2, 3]), chunks.length)).toBeUndefined();
    const otherFormat = bytes.slice();
    otherFormat[3] = '9'.charCodeAt(0);
    expect(decodeLexicalIndex(otherFormat, chunks.length)).toBeUndefined();
  });

  it('refuses a posting that points outside the index', () => {
    const data = buildLexicalIndexData(chunks);
    data.postingDocs[0] = chunks.length + 5;
    expect(decodeLexicalIndex(encodeLexicalIndex(data), chunks.length)).toBeUndefined();
  });
});
