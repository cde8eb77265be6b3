import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../schema/index.js';
import { prepareDocument } from '../ingest/ingest.js';
import {
  BM25_K1,
  buildLexicalIndex,
  buildLexicalIndexData,
  DEFAULT_FIELD_WEIGHTS,
  EXPANSION_FIELD_WEIGHT,
  lexicalIndexFromData,
  type FieldWeight,
  type LexicalIndexOptions,
} from './lexical-index.js';
import { analyze } from './tokenizer.js';

const FIXTURES = join(import.meta.dirname, '../ingest/fixtures/book');
const chunks: ChunkRecord[] = [
  ['guide.mdx', 'guide.mdx'],
  ['nested/topics.rst', 'nested/topics.rst'],
].flatMap(
  ([path, file]) =>
    prepareDocument(path as string, readFileSync(join(FIXTURES, file as string), 'utf8')).chunks,
);
const expansion = chunks.map(
  (_, doc) =>
    new Map([
      ['extra', 0.5 + doc / 10],
      [`only${doc % 3}`, 0.25],
    ]),
);

/** BM25F written out plainly, term by term, as the index's reference. */
function referenceScores(options: LexicalIndexOptions): Map<string, Map<number, number>> {
  const fields: FieldWeight[] = options.fields
    ? [options.fields.title, options.fields.headings, options.fields.body]
    : [{ weight: 1, b: 0.75 }];
  if (options.expansion) fields.push(EXPANSION_FIELD_WEIGHT);
  const perDoc = chunks.map((chunk, doc) => {
    const top = chunk.headingPath[0];
    const title = top && top !== chunk.title ? `${chunk.title}\n${top}` : chunk.title;
    const texts = [title, chunk.headingPath.slice(1).join('\n'), chunk.text];
    const tokens = options.fields
      ? texts.map((text) => analyze(text))
      : [analyze(texts.join('\n'))];
    const counts = tokens.map((list) => {
      const terms = options.bigrams
        ? [...list, ...list.slice(1).map((t, i) => `${list[i]} ${t}`)]
        : list;
      const map = new Map<string, number>();
      for (const term of terms) map.set(term, (map.get(term) ?? 0) + 1);
      return map;
    });
    const lengths = tokens.map((list) => list.length);
    const extra = options.expansion?.[doc];
    if (extra) {
      counts.push(new Map(extra));
      lengths.push([...extra.values()].reduce((a, b) => a + b, 0));
    }
    return { counts, lengths };
  });
  const averages = fields.map((_, f) =>
    Math.max(1, perDoc.reduce((sum, d) => sum + (d.lengths[f] ?? 0), 0) / chunks.length),
  );
  const weights = new Map<string, Map<number, number>>();
  perDoc.forEach(({ counts, lengths }, doc) => {
    const terms = new Set(counts.flatMap((map) => [...map.keys()]));
    for (const term of terms) {
      let tilde = 0;
      fields.forEach(({ weight, b }, f) => {
        const tf = counts[f]?.get(term) ?? 0;
        if (tf > 0) tilde += (weight * tf) / (1 - b + (b * (lengths[f] ?? 0)) / (averages[f] ?? 1));
      });
      if (!weights.has(term)) weights.set(term, new Map());
      weights.get(term)?.set(doc, tilde / (BM25_K1 + tilde));
    }
  });
  const scores = new Map<string, Map<number, number>>();
  for (const [term, docs] of weights) {
    const idf = Math.log(1 + (chunks.length - docs.size + 0.5) / (docs.size + 0.5));
    scores.set(term, new Map([...docs].map(([doc, w]) => [doc, idf * w])));
  }
  return scores;
}

const variants: [string, LexicalIndexOptions][] = [
  ['plain BM25', {}],
  ['BM25F fields', { fields: DEFAULT_FIELD_WEIGHTS }],
  ['fields, bigrams and expansion', { fields: DEFAULT_FIELD_WEIGHTS, bigrams: true, expansion }],
];

describe('lexical index', () => {
  it.each(variants)('%s: every term scores every chunk as BM25F says', (_, options) => {
    const index = buildLexicalIndex(chunks, options);
    const reference = referenceScores(options);
    expect(reference.size).toBeGreaterThan(20);
    for (const [term, expected] of reference) {
      const scores = new Float64Array(chunks.length);
      const touched = index.accumulate(new Map([[term, 1]]), scores);
      expect(touched).toEqual([...expected.keys()]);
      for (const [doc, score] of expected) expect(scores[doc]).toBeCloseTo(score, 6);
      expect(index.df(term)).toBe(expected.size);
    }
  });

  it('a mask skips chunks, and only first touches are reported', () => {
    const index = buildLexicalIndex(chunks);
    const [term, docs] = [...referenceScores({})].find(([, d]) => d.size >= 2) ?? [];
    const [first, second] = [...(docs?.keys() ?? [])] as [number, number];
    const scores = new Float64Array(chunks.length);
    const mask = new Uint8Array(chunks.length).fill(1);
    mask[first] = 0;
    const touched = index.accumulate(new Map([[term as string, 1]]), scores, mask);
    expect(touched).not.toContain(first);
    expect(touched).toContain(second);
    expect(index.accumulate(new Map([[term as string, 1]]), scores, mask)).toEqual([]);
  });

  it('term vectors count headings and body words, not the shared title', () => {
    const index = buildLexicalIndex(chunks, { fields: DEFAULT_FIELD_WEIGHTS });
    chunks.forEach((chunk, doc) => {
      const words = analyze([chunk.headingPath.slice(1).join('\n'), chunk.text].join('\n'));
      const { terms, counts, length } = index.termVector(doc);
      const expected = new Map<string, number>();
      for (const word of words) expected.set(word, (expected.get(word) ?? 0) + 1);
      expect(new Map(terms.map((t, i) => [t, counts[i]]))).toEqual(expected);
      expect(length).toBe(words.length);
    });
    expect(index.termVector(chunks.length).terms).toEqual([]);
  });

  it.each(variants)(
    '%s: its arrays are laid out in the order terms are first seen',
    (_, options) => {
      // What is saved in a store's build cache: the same bytes for the same chunks, whatever way the
      // build counts. Written plainly: a map per chunk, each term's counts per field.
      const fields = options.fields ? 3 : 1;
      const width = fields + (options.expansion ? 1 : 0);
      const terms: string[] = [];
      const ids = new Map<string, number>();
      const idOf = (term: string) => {
        if (!ids.has(term)) ids.set(term, terms.push(term) - 1);
        return ids.get(term) as number;
      };
      const entries: { doc: number; id: number; counts: number[] }[] = [];
      const vectorTerms: number[] = [];
      const vectorCounts: number[] = [];
      const vectorStarts = [0];
      chunks.forEach((chunk, doc) => {
        const top = chunk.headingPath[0];
        const title = top && top !== chunk.title ? `${chunk.title}\n${top}` : chunk.title;
        const texts = [title, chunk.headingPath.slice(1).join('\n'), chunk.text];
        const tokens = options.fields ? texts.map((t) => analyze(t)) : [analyze(texts.join('\n'))];
        const counts = new Map<number, number[]>();
        const vector = new Map<number, number>();
        const count = (term: string, field: number, amount: number) => {
          const id = idOf(term);
          const row = counts.get(id) ?? new Array<number>(width).fill(0);
          counts.set(id, row);
          row[field] = (row[field] as number) + amount;
        };
        tokens.forEach((list, field) => {
          for (const term of list) count(term, field, 1);
          if (options.bigrams) list.slice(1).forEach((t, i) => count(`${list[i]} ${t}`, field, 1));
          if (field > 0 || !options.fields)
            for (const term of list) vector.set(idOf(term), (vector.get(idOf(term)) ?? 0) + 1);
        });
        for (const [term, weight] of options.expansion?.[doc] ?? []) count(term, fields, weight);
        for (const [id, row] of counts) entries.push({ doc, id, counts: row });
        for (const [id, n] of vector) {
          vectorTerms.push(id);
          vectorCounts.push(n);
        }
        vectorStarts.push(vectorTerms.length);
      });
      const data = buildLexicalIndexData(chunks, options);
      expect(data.terms).toEqual(terms);
      expect([...data.vectorStarts]).toEqual(vectorStarts);
      expect([...data.vectorTerms]).toEqual(vectorTerms);
      expect([...data.vectorCounts]).toEqual(vectorCounts);
      // Each term's postings hold its chunks in chunk order.
      const byTerm = terms.map((_, id) => entries.filter((entry) => entry.id === id));
      expect([...data.postingStarts]).toEqual(
        byTerm.reduce((starts, list) => [...starts, (starts.at(-1) as number) + list.length], [0]),
      );
      expect([...data.postingDocs]).toEqual(byTerm.flatMap((list) => list.map(({ doc }) => doc)));
      expect(data.postingWeights.length).toBe(entries.length);
    },
  );

  it('an index from a copy of its arrays answers exactly as the built one', () => {
    const options = { fields: DEFAULT_FIELD_WEIGHTS, bigrams: true, expansion };
    const built = buildLexicalIndex(chunks, options);
    const loaded = lexicalIndexFromData(
      chunks,
      structuredClone(buildLexicalIndexData(chunks, options)),
    );
    for (const term of referenceScores(options).keys()) {
      const a = new Float64Array(chunks.length);
      const b = new Float64Array(chunks.length);
      expect(loaded.accumulate(new Map([[term, 0.7]]), b)).toEqual(
        built.accumulate(new Map([[term, 0.7]]), a),
      );
      expect(b).toEqual(a);
    }
    chunks.forEach((_, doc) => expect(loaded.termVector(doc)).toEqual(built.termVector(doc)));
  });
});
