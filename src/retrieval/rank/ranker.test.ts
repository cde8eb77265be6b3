import { describe, expect, it } from 'vitest';
import { fakeWordNet } from '../../test/fake-wordnet.js';
import { expectShortListsAreHeads, TOP_K_CHUNKS, TOP_K_WORDNET } from '../../test/top-k-check.js';
import { prepareDocument } from '../ingest/ingest.js';
import { mineAcronyms } from './acronyms.js';
import { definedTermIndex } from './defined-terms.js';
import { buildLexicalIndex, DEFAULT_FIELD_WEIGHTS } from './lexical-index.js';
import { expandWithWordNet } from './query-expansion.js';
import {
  BM25_ONLY,
  createRanker,
  DEFAULT_TECHNIQUES,
  expandQuery,
  maxAttainableScore,
  relevance,
} from './ranker.js';
import { topK } from './top-k.js';

const chunksOf = (markdown: string) =>
  prepareDocument('course.md', `# Course\n\n${markdown}`).chunks;

describe('query expansion', () => {
  it('definition words are weighted by corpus idf, apart from synonyms', () => {
    const index = buildLexicalIndex(
      chunksOf(
        '## A\n\nThe axis of motion.\n\n## B\n\nMotion again.\n\n## C\n\nMore motion.\n\n## D\n\nRevolve and motion.\n',
      ),
    );
    const wordnet = fakeWordNet({
      spin: { synonyms: ['revolve'], definitions: ['axis', 'motion'] },
    });
    const run = (definitionsByIdf: boolean) => {
      const expansions = new Map<string, number>();
      const concepts = new Map<string, string>();
      expandWithWordNet('spin', wordnet, index, new Map([['spin', 1]]), expansions, {
        definitionsByIdf,
        concepts,
      });
      return { expansions, concepts };
    };
    const flat = run(false).expansions;
    expect(flat.get('axi')).toBe(flat.get('motion'));
    const { expansions, concepts } = run(true);
    expect(expansions.get('axi')).toBeGreaterThan(expansions.get('motion') ?? 0);
    expect(expansions.get('revolv')).toBeGreaterThan(expansions.get('axi') ?? 0);
    expect(concepts.get('axi')).toBe('spin');
  });
});

describe('bounded top-k', () => {
  it('a short list is the head of the long one, on every query and technique set', () => {
    for (const techniques of [BM25_ONLY, DEFAULT_TECHNIQUES])
      expectShortListsAreHeads(createRanker(TOP_K_CHUNKS, { techniques, wordnet: TOP_K_WORDNET }));
  });
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = [
  'robot',
  'topic',
  'node',
  'service',
  'action',
  'goal',
  'sensor',
  'camera',
  'joint',
  'frame',
];
const RELATIVES = fakeWordNet({
  robot: { synonyms: ['machine'] },
  camera: { synonyms: ['sensor', 'lens'] },
  goal: { synonyms: ['target'], definitions: ['frame', 'action'] },
});

/**
 * A random book: sections of words from a ten-word vocabulary (so scores tie often), some with a
 * bold-lead definition or an acronym's long form, and each section copied `copies` times under
 * new headings, as the bench scales a corpus.
 */
function randomBook(next: () => number): string {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const sections = Array.from({ length: 3 + Math.floor(next() * 12) }, () => {
    const words = Array.from({ length: 1 + Math.floor(next() * 12) }, pick).join(' ');
    const lead = next() < 0.3 ? `- **${pick()}**: ${pick()} ${pick()}\n` : '';
    const acronym = next() < 0.2 ? 'Robot Operating System (ROS) ' : '';
    return {
      heading: pick(),
      body: `${lead}${acronym}${words} machine ${next() < 0.3 ? 'ROS' : ''}`,
    };
  });
  const copies = 1 + Math.floor(next() * 3);
  return Array.from({ length: copies }, (_, copy) =>
    sections.map((s, i) => `## ${s.heading} ${copy} ${i}\n\n${s.body}\n`).join('\n'),
  ).join('\n');
}

/**
 * How the ranker scored before it summed postings list by list into a shared accumulator: every
 * own term into one array, the expansions and definition bonuses on top, then the bounded top-k.
 */
function rankAsBefore(
  chunks: ReturnType<typeof chunksOf>,
  query: string,
  limit: number,
  mask?: Uint8Array,
) {
  const index = buildLexicalIndex(chunks, { fields: DEFAULT_FIELD_WEIGHTS });
  const defined = definedTermIndex(chunks);
  const acronyms = mineAcronyms(chunks.map((c) => c.text));
  const { terms, expansions } = expandQuery(query, index, DEFAULT_TECHNIQUES, {
    acronyms,
    wordnet: () => RELATIVES,
  });
  const maxAttainable = maxAttainableScore(terms, index);
  const base = new Float64Array(chunks.length);
  const own = index.accumulate(terms, base, mask);
  const scores = Float64Array.from(base);
  const touched = [...own, ...index.accumulate(expansions, scores, mask)];
  touched.push(...defined.addBonus(terms, scores, index, mask));
  return topK(scores, touched, limit).map((doc) => ({
    doc,
    chunk: chunks[doc],
    raw: scores[doc],
    score: relevance(base[doc] as number, scores[doc] as number, maxAttainable),
  }));
}

describe('scoring list by list', () => {
  it('ranks random books exactly as before: the same chunks, raw scores and relevance, ties included', () => {
    const next = random(3);
    for (let book = 0; book < 40; book++) {
      const chunks = chunksOf(randomBook(next));
      const ranker = createRanker(chunks, { wordnet: RELATIVES });
      for (let q = 0; q < 8; q++) {
        const query = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
          next() < 0.1
            ? 'Robot Operating System'
            : (WORDS[Math.floor(next() * WORDS.length)] as string),
        ).join(' ');
        const mask =
          next() < 0.3
            ? Uint8Array.from({ length: chunks.length }, () => (next() < 0.5 ? 1 : 0))
            : undefined;
        for (const limit of [1, 5, 1000]) {
          expect(ranker.rank(query, { limit, mask })).toEqual(
            rankAsBefore(chunks, query, limit, mask),
          );
        }
      }
    }
  });
});

/** A rover manual's section on odometry, the subject the next tests ask about. */
const WHEEL_SENSING = [
  '## Wheel Sensing',
  '',
  'The rover senses its own motion through its wheels.',
  '',
  '- **Odometry**: Estimating how far the rover moved from its wheel encoders',
  '- **Slip detection**: Noticing when a wheel turns without moving the rover',
  '',
];

describe('the manner of the answer', () => {
  it('does not let "in plain words" outweigh the subject', () => {
    const ranker = createRanker(
      chunksOf(
        [
          '## Plain Words',
          '',
          'Status messages use plain words: short words a visitor reads at a glance, with no codes, so anyone near the rover knows what it is doing.',
          '',
          ...WHEEL_SENSING,
          '## Charging',
          '',
          'The dock charges the rover overnight, and a full battery lasts a whole day of driving around the yard.',
          '',
        ].join('\n'),
      ),
      { techniques: { wordnet: false } },
    );
    const first = (query: string) =>
      ranker.rank(query, { limit: 1 })[0]?.chunk.headingPath.join(' > ');
    expect(first('odometry in plain words?')).toContain('Wheel Sensing');
    // Mid-question the same words are asked about.
    expect(first('Why do status messages use plain words?')).toContain('Plain Words');
  });
});

describe('a greeting or thanks before the question', () => {
  it('is not ranked: "Thanks! What is odometry?" finds what "What is odometry?" finds', () => {
    // "Thanks! What is a ROS 2 topic?" over the textbook ranked its acknowledgements' "thank"
    // and lost the definition of topics from the first five.
    const ranker = createRanker(
      chunksOf(
        [
          '## Acknowledgements',
          '',
          'We thank the reviewers, and thanks to everyone who tested the rover.',
          '',
          ...WHEEL_SENSING,
        ].join('\n'),
      ),
      { techniques: { wordnet: false } },
    );
    const sections = (query: string) =>
      ranker.rank(query, { limit: 5 }).map((ranked) => ranked.chunk.headingPath.join(' > '));
    expect(sections('Thanks! What is odometry?')).toEqual(sections('What is odometry?'));
    // Asked about, the words are ranked.
    expect(sections('Who does the rover team thank?')[0]).toContain('Acknowledgements');
  });
});

describe('the request', () => {
  it('does not rank a passage up for sharing only the verb that asks ("suggest")', () => {
    // A licence page is the only passage with "suggests": the question's subject is elsewhere.
    const ranker = createRanker(
      chunksOf(
        [
          '## Licence',
          '',
          'You may share the rover manual, but not in a way that suggests we endorse you.',
          '',
          '## Choosing a Rover',
          '',
          'Schools with little funding pick the small rover, the cheapest to run and to repair, for their lab.',
          '',
          '## Charging',
          '',
          'The dock charges the rover overnight.',
          '',
        ].join('\n'),
      ),
      { techniques: { wordnet: false } },
    );
    const first = ranker.rank('which rover would you suggest for a lab on a budget', {
      limit: 1,
    })[0];
    expect(first?.chunk.headingPath.join(' > ')).toContain('Choosing a Rover');
  });
});

describe('sections that list the course', () => {
  const book = chunksOf(
    [
      '## Learning Objectives',
      '',
      '- Describe URDF links, URDF joints and joint types of a robot model',
      '',
      '## URDF Structure',
      '',
      '### Joints',
      '',
      'Joints connect two links: revolute, continuous, prismatic and fixed are the common types.',
      '',
      '## Week 6: URDF and Robot Modeling',
      '',
      '- URDF joints and joint types, URDF links',
      '',
    ].join('\n'),
  );
  const first = (query: string, courseMeta = true) =>
    createRanker(book, { techniques: { wordnet: false, courseMeta } })
      .rank(query, { limit: 1 })[0]
      ?.chunk.headingPath.join(' > ');

  it('answers a topic question from the section that explains it, not the one that lists it', () => {
    expect(first('what joint types are there in urdf', false)).not.toContain('Joints');
    expect(first('what joint types are there in urdf')).toContain('URDF Structure > Joints');
  });

  it('still answers a question about the course from the week that covers it', () => {
    expect(first('which week covers urdf joint types')).toContain('Week 6');
  });
});

describe('a comparison asks about each side', () => {
  const both = Array.from({ length: 8 }, (_, i) => [
    `## Closet shelf ${i + 1}`,
    '',
    `Shelf ${i + 1} holds a broom and a mop side by side, and the broom hangs above the mop.`,
    '',
  ]).flat();
  const book = chunksOf(
    [
      ...both,
      '## Brooms',
      '',
      'Brooms are stiff brushes on a long handle, for sweeping dry dust from a floor.',
      '',
      '## Mops',
      '',
      'Mops are wet cloths on a long handle, for washing a floor.',
      '',
    ].join('\n'),
  );
  const top = (query: string, comparedSides: boolean) =>
    createRanker(book, { techniques: { wordnet: false, comparedSides } })
      .rank(query, { limit: 5 })
      .map((hit) => hit.chunk.headingPath.at(-1));

  it('gives the page defining each side a place among the top passages', () => {
    const query = 'What is the difference between brooms and mops?';
    expect(top(query, false)).not.toContain('Brooms');
    expect(top(query, false)).not.toContain('Mops');
    expect(top(query, true)).toEqual(expect.arrayContaining(['Brooms', 'Mops']));
  });

  it('ranks a question that compares nothing as before', () => {
    expect(top('Where does the broom hang?', true)).toEqual(
      top('Where does the broom hang?', false),
    );
  });
});
