import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../src/schema/index.js';
import { createExperimentalRanker } from './experimental-ranker.js';
import { buildLatentSemanticIndex, type DocumentTerms } from './latent-semantic-index.js';

const terms = (...words: string[]): DocumentTerms => ({ terms: words, counts: words.map(() => 1) });

/** Two topics; "drift" and "odometry" only ever occur together, never with the query word "lost". */
const corpus: DocumentTerms[] = [
  terms('lost', 'odometry', 'pose'),
  terms('odometry', 'drift', 'pose'),
  terms('drift', 'odometry', 'loop', 'closure'),
  terms('pose', 'drift', 'loop'),
  terms('grasp', 'gripper', 'finger'),
  terms('gripper', 'finger', 'force'),
  terms('grasp', 'force', 'object'),
  terms('finger', 'object', 'grasp'),
  terms('gripper', 'object', 'force'),
  terms('loop', 'closure', 'odometry'),
];

describe('latent semantic index', () => {
  const lsi = buildLatentSemanticIndex(corpus, { dimensions: 2 });
  const similarities = (query: string[]) => {
    const out = new Float32Array(corpus.length);
    const known = lsi.similarities(new Map(query.map((t) => [t, 1])), out);
    return { known, out };
  };

  it('finds a chunk that shares no word with the query through a co-occurring term', () => {
    const { known, out } = similarities(['lost']);
    expect(known).toBe(true);
    // Chunk 3 ("pose drift loop") never says "lost"; the grasping chunks are the other topic.
    for (const grasping of [4, 5, 6, 7, 8]) expect(out[3]).toBeGreaterThan(out[grasping] as number);
    expect(out[3]).toBeGreaterThan(0.5);
  });

  it('says when no query term is known, and leaves scores alone', () => {
    const out = new Float32Array(corpus.length).fill(7);
    expect(lsi.similarities(new Map([['pasta', 1]]), out)).toBe(false);
    expect(out[0]).toBe(7);
    expect(lsi.has('pasta')).toBe(false);
    expect(lsi.has('drift')).toBe(true);
  });

  it('is reproducible: the same corpus gives the same scores', () => {
    const again = buildLatentSemanticIndex(corpus, { dimensions: 2 });
    const a = new Float32Array(corpus.length);
    const b = new Float32Array(corpus.length);
    lsi.similarities(new Map([['grasp', 1]]), a);
    again.similarities(new Map([['grasp', 1]]), b);
    expect(Array.from(b)).toEqual(Array.from(a));
  });
});

const chunk = (ord: number, heading: string, text: string): ChunkRecord => ({
  id: `c${ord}`,
  source: 'book.md',
  ord,
  title: 'Book',
  headingPath: ['Book', heading],
  domain: 'book',
  text,
  hash: `h${ord}`,
  metadata: {},
});

describe('ranking with LSI', () => {
  // "lost" occurs only beside "odometry"; the Drift section never says "lost".
  const chunks = [
    chunk(0, 'Tracking', 'A robot that is lost relies on odometry to estimate its pose.'),
    chunk(1, 'Drift', 'Odometry drift accumulates pose error; loop closure corrects drift.'),
    chunk(
      2,
      'Loop Closure',
      'Loop closure recognises a revisited place and corrects odometry drift.',
    ),
    chunk(3, 'Grasping', 'A gripper closes its fingers on an object with enough force.'),
    chunk(4, 'Finger Force', 'Finger force sensors tell the gripper how hard it holds an object.'),
    chunk(5, 'Objects', 'Object shape decides the grasp a gripper uses.'),
    chunk(6, 'Pose', 'Pose estimation combines odometry with loop closure.'),
    chunk(7, 'Force', 'Force control keeps the grasp of an object gentle.'),
  ];
  const techniques = { fields: false, acronyms: false, wordnet: false };

  it('returns a passage with no query word that plain BM25 cannot find', () => {
    const withLsi = createExperimentalRanker(chunks, { techniques: { ...techniques, lsi: true } });
    const bm25 = createExperimentalRanker(chunks, { techniques: { ...techniques, lsi: false } });
    const found = withLsi.rank('lost', { limit: 4 }).map((hit) => hit.chunk.headingPath[1]);
    expect(found).toContain('Drift');
    expect(found).not.toContain('Grasping');
    expect(bm25.rank('lost', { limit: 4 }).map((hit) => hit.chunk.headingPath[1])).toEqual([
      'Tracking',
    ]);
    for (const hit of withLsi.rank('lost')) expect(hit.score).toBeLessThanOrEqual(1);
  });
});
