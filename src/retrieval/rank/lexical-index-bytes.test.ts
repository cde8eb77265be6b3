import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../schema/index.js';
import { prepareDocument } from '../ingest/ingest.js';
import { mineAcronyms } from './acronyms.js';
import { codeShares } from './code-share.js';
import { findDefinedTerms } from './defined-terms.js';
import { findFullNames } from './full-names.js';
import { buildLexicalIndex } from './lexical-index.js';
import { decodeLexicalIndex, encodeLexicalIndex } from './lexical-index-bytes.js';
import { buildLexicalIndexData, DEFAULT_FIELD_WEIGHTS } from './lexical-index.js';
import { createRanker, type SavedRanker } from './ranker.js';

const { chunks } = prepareDocument(
  'course.md',
  `# Course\n\n## Jetson Boards\n\nThe Jetson Orin Nano runs neural networks at the edge on boardOS.\n\n## Topics\n\nTopics carry messages from publishers to subscribers; boardOS logs them.\n\n- **Topic**: a named bus between nodes.\n\nList them:\n\n\`\`\`\nros2 topic list\n\`\`\`\n\n## Balance\n\nA Zero Moment Point (ZMP) keeps a walking robot upright; so does Model Predictive Control (MPC), on boardOS.\n\n## Batteries\n\nEach pack lists its EOL month; a pack past EOL is recycled. Battery end-of-life rules vary; boardOS warns.\n`,
);

const savedOf = (options: { bigrams?: boolean } = {}): SavedRanker => ({
  index: buildLexicalIndexData(chunks, { fields: DEFAULT_FIELD_WEIGHTS, ...options }),
  acronyms: mineAcronyms(chunks.map((chunk) => chunk.text)),
  definitions: findDefinedTerms(chunks),
  codeShares: codeShares(chunks),
  fullNames: findFullNames(chunks, { df: (term) => index.df(term) }),
});
const index = buildLexicalIndex(chunks);

/** The chunks with a text that may not be read: a ranker loaded from saved bytes must not. */
const withUnreadText = (list: readonly ChunkRecord[]): ChunkRecord[] =>
  list.map((chunk) => {
    const { text: _text, ...rest } = chunk;
    return Object.defineProperty({ ...rest } as ChunkRecord, 'text', {
      enumerable: true,
      get: () => {
        throw new Error(`read the text of ${chunk.id}`);
      },
    });
  });

describe('encodeLexicalIndex / decodeLexicalIndex', () => {
  for (const bigrams of [false, true]) {
    it(`gives back the same arrays, acronyms and definitions (bigrams ${bigrams})`, () => {
      const saved = savedOf({ bigrams });
      expect(saved.acronyms.get('zmp')).toEqual(new Set(['zero moment point']));
      // The bold lead "Topic", and the page's short title "Course" over its first section.
      expect(saved.definitions.length).toBe(2);
      expect(saved.codeShares.map(([doc]) => doc)).toEqual([1]);
      expect(saved.fullNames).toEqual([['board', 'boardos']]);
      const decoded = decodeLexicalIndex(encodeLexicalIndex(saved), chunks.length);
      expect(decoded).toEqual(saved);
      // In the same order, which the query expansion iterates.
      expect([...(decoded?.acronyms.keys() ?? [])]).toEqual([...saved.acronyms.keys()]);
    });
  }

  it('a ranker loaded from them reads no chunk text and ranks as a built one', () => {
    const built = createRanker(chunks);
    const bytes = encodeLexicalIndex(built.toSave!());
    const loaded = createRanker(
      withUnreadText(chunks),
      {},
      decodeLexicalIndex(bytes, chunks.length),
    );
    // "board" is the corpus's boardOS (`findFullNames`).
    const queries = ['What is ZMP?', 'zero moment point', 'What is a topic?', 'Jetson'];
    for (const query of [...queries, 'What runs on a board?']) {
      const strip = (hits: ReturnType<typeof built.rank>) =>
        hits.map(({ doc, raw, score }) => ({ doc, raw, score }));
      expect(strip(loaded.rank(query, { limit: 5 }))).toEqual(
        strip(built.rank(query, { limit: 5 })),
      );
    }
    // Saving it again reads nothing either.
    expect(encodeLexicalIndex(loaded.toSave!())).toEqual(bytes);
  });

  it('reads bytes at any offset of a larger buffer (as a database driver returns them)', () => {
    const saved = savedOf();
    const bytes = encodeLexicalIndex(saved);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(decodeLexicalIndex(padded.subarray(3), chunks.length)).toEqual(saved);
    // A Node Buffer, whose slice() is a view into a larger pool.
    const pooled = Buffer.concat([Buffer.from([9, 9, 9]), Buffer.from(bytes)]).subarray(3);
    expect(decodeLexicalIndex(pooled, chunks.length)).toEqual(saved);
  });

  it('refuses bytes that are not a whole index over that many chunks', () => {
    const bytes = encodeLexicalIndex(savedOf());
    expect(decodeLexicalIndex(bytes, chunks.length + 1)).toBeUndefined();
    expect(decodeLexicalIndex(bytes.subarray(0, bytes.length - 16), chunks.length)).toBeUndefined();
    expect(decodeLexicalIndex(new Uint8Array([1, 2, 3]), chunks.length)).toBeUndefined();
    const otherFormat = bytes.slice();
    otherFormat[3] = '1'.charCodeAt(0);
    expect(decodeLexicalIndex(otherFormat, chunks.length)).toBeUndefined();
  });

  it('refuses a posting or a definition that points outside the index', () => {
    const saved = savedOf();
    saved.index.postingDocs[0] = chunks.length + 5;
    expect(decodeLexicalIndex(encodeLexicalIndex(saved), chunks.length)).toBeUndefined();
    const definition = savedOf();
    definition.definitions = [{ doc: chunks.length, stems: ['topic'] }];
    expect(decodeLexicalIndex(encodeLexicalIndex(definition), chunks.length)).toBeUndefined();
  });
});
