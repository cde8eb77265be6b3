import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../../src/retrieval/ingest/ingest.js';
import { createRanker } from '../../src/retrieval/rank/ranker.js';
import { fakeWordNet } from '../../src/test/fake-wordnet.js';
import { createLearnedRanker } from './learned-reranker.js';
import { RERANK_FEATURES, type RerankFeature } from './rerank-features.js';
import { fitRerankModel, parseRerankModel, type RerankModel } from './rerank-model.js';

const chunksOf = (markdown: string) =>
  prepareDocument('course.md', `# Course\n\n${markdown}`).chunks;
const headings = (hits: { chunk: { headingPath: string[] } }[]) =>
  hits.map((hit) => hit.chunk.headingPath.at(-1));
const column = (name: RerankFeature) => RERANK_FEATURES.indexOf(name);
const wordnet = fakeWordNet({});

// "Joint Limits" names the question's words once, in its heading; "Revolute Joints" repeats them
// across separate lines of its body, so BM25 puts it first.
const BOOK = chunksOf(
  [
    '## Revolute Joints',
    '',
    'A revolute joint rotates about one axis with a limit on torque.',
    '',
    'Each joint has sensors; every joint reports its angle, and the joint limit is configured elsewhere.',
    '',
    '## Joint Limits',
    '',
    'Physical stops keep the angle within a safe range so the actuator does not break.',
  ].join('\n'),
);
const QUERY = 'joint limits';

/** A model that only weighs one feature. */
const only = (feature: RerankFeature): RerankModel =>
  parseRerankModel({
    features: [feature],
    mean: [0],
    scale: [1],
    weights: [1],
    depth: 10,
    fittedOn: 'test',
  });

describe('learned reranker experiment', () => {
  it('without a model, ranks exactly as the runtime ranker did when it was fitted', () => {
    const learned = createLearnedRanker(BOOK, { wordnet }).rank(QUERY, { limit: 5 });
    const runtime = createRanker(BOOK, { wordnet, techniques: { headingNamed: false } }).rank(
      QUERY,
      { limit: 5 },
    );
    expect(learned.map((hit) => [hit.doc, hit.score])).toEqual(
      runtime.map((hit) => [hit.doc, hit.score]),
    );
    expect(headings(learned)[0]).toBe('Revolute Joints');
  });

  it('features: the heading match and the best line are measured per candidate', () => {
    const ranker = createLearnedRanker(BOOK, { wordnet });
    const stage = ranker.firstStage(QUERY, { limit: 5 });
    const rows = ranker.features(stage);
    const byHeading = new Map(
      stage.candidates.map((c, i) => [BOOK[c.doc]!.headingPath.at(-1), rows[i]!]),
    );
    expect(byHeading.get('Joint Limits')![column('headingOwn')]).toBe(1);
    expect(byHeading.get('Revolute Joints')![column('headingOwn')]).toBeLessThan(1);
    // "joint limit" share one line of the Revolute Joints body: its best line covers the query.
    expect(byHeading.get('Revolute Joints')![column('lineOwn')]).toBe(1);
    for (const row of rows) expect(row.every((x) => Number.isFinite(x))).toBe(true);
  });

  it('features: a heading word counts as explained when the question names one of its WordNet relatives', () => {
    const chunks = chunksOf(
      '## Robot Fleet Twins\n\nDigital twins of many robots working together.\n\n## Robot Arms\n\nArms of a robot.\n',
    );
    const ranker = createLearnedRanker(chunks, {
      wordnet: fakeWordNet({ fleet: { definitions: ['group'] } }),
    });
    const stage = ranker.firstStage('a virtual copy of a whole group of robots', { limit: 5 });
    const rows = ranker.features(stage);
    const row = (heading: string) =>
      rows[stage.candidates.findIndex((c) => chunks[c.doc]!.headingPath.at(-1) === heading)]!;
    // "robot" is named; "fleet" through its relative "group"; "twins" not at all.
    expect(row('Robot Fleet Twins')[column('headingExplainedRelatives')]).toBeGreaterThan(
      row('Robot Fleet Twins')[column('headingExplained')]!,
    );
    expect(row('Robot Arms')[column('headingExplainedRelatives')]).toBe(
      row('Robot Arms')[column('headingExplained')],
    );
  });

  it('a model weighing the heading match reorders the first stage, keeping relevance scores', () => {
    const plain = createLearnedRanker(BOOK, { wordnet }).rank(QUERY, { limit: 5 });
    const reranked = createLearnedRanker(BOOK, { wordnet, model: only('headingOwn') }).rank(QUERY, {
      limit: 5,
    });
    expect(headings(reranked)[0]).toBe('Joint Limits');
    const scoreOf = (hits: typeof plain, doc: number) => hits.find((h) => h.doc === doc)?.score;
    for (const hit of reranked) expect(hit.score).toBe(scoreOf(plain, hit.doc));
  });

  it('fitting learns a positive weight for the feature that separates gold candidates', () => {
    const row = (heading: number, noise: number) => {
      const values = new Float64Array(RERANK_FEATURES.length);
      values[column('headingOwn')] = heading;
      values[column('length')] = noise;
      return values;
    };
    const examples = Array.from({ length: 20 }, (_, i) => ({
      rows: [row(1, (i % 3) / 3), row(0, ((i + 1) % 3) / 3), row(0, ((i + 2) % 3) / 3)],
      gold: [true, false, false],
    }));
    const model = fitRerankModel(examples, {
      features: ['headingOwn', 'length'],
      ridge: 1,
      depth: 10,
    });
    expect(model.weights[0]).toBeGreaterThan(1);
    expect(Math.abs(model.weights[1]!)).toBeLessThan(model.weights[0]!);
  });

  it('rejects a model whose arrays do not match its features', () => {
    expect(() =>
      parseRerankModel({
        features: ['total', 'own'],
        mean: [0],
        scale: [1, 1],
        weights: [1, 1],
        depth: 10,
        fittedOn: 'test',
      }),
    ).toThrow(/2 entries/);
    expect(() =>
      parseRerankModel({
        features: ['nonsense'],
        mean: [0],
        scale: [1],
        weights: [1],
        depth: 10,
        fittedOn: 'test',
      }),
    ).toThrow(/Reranker model/);
  });
});
