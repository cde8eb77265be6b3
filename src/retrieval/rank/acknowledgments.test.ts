import { describe, expect, it } from 'vitest';
import { learnBookKnowledge } from '../../routing/book-knowledge.js';
import { prepareDocument } from '../ingest/ingest.js';
import { acknowledgmentChunks, asksWhomTheWorkThanks } from './acknowledgments.js';
import { DEFAULT_TECHNIQUES, createRanker } from './ranker.js';

// A small gardening guide that thanks people under a heading of its own, and a chapter whose
// words ("authors", "book") a question about the thanks also uses.
const chunks = [
  ...prepareDocument(
    'chapters/soil/index.md',
    [
      '# Soil',
      '## Reading Seed Catalogues',
      'The authors of seed catalogues write the sowing depth on each packet; this book lists them too.',
      '## Compost',
      'Turn the compost heap every week so air reaches the middle.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'appendices/notes.md',
    [
      '# Notes',
      '## Acknowledgments',
      'We acknowledge the allotment holders who lent their plots for the trials.',
    ].join('\n\n'),
  ).chunks,
];

const first = (query: string, frontMatter = true) => {
  const [top] = createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, frontMatter } }).rank(
    query,
    { limit: 3 },
  );
  return top && `${top.chunk.headingPath.at(-1)} ${top.score.toFixed(2)}`;
};

describe('asksWhomTheWorkThanks', () => {
  it('is a question about whom the work or its authors thank', () => {
    for (const query of [
      'Who does the book thank?',
      'Who are the authors grateful to?',
      'Does the textbook acknowledge anyone?',
      'Which people did they thank for help with the guide?',
      // An outside review: refused as not covering "indebted".
      'To whom is the book indebted?',
    ])
      expect(asksWhomTheWorkThanks(query), query).toBe(true);
  });

  it('reads "credit" as thanks only asked as who or which people the work credits', () => {
    // An outside review: "Which people does the book credit?" quoted the licence's "give
    // appropriate credit", which is also a reading of "credit": how a reader credits the work.
    for (const query of [
      'Which people does the book credit?',
      'Who does the book credit?',
      'Who is credited in this book?',
      'Which people are credited by the authors?',
    ])
      expect(asksWhomTheWorkThanks(query), query).toBe(true);
    for (const query of [
      'How do I credit the book if I reuse a figure?',
      'Do I have to give credit when I share the slides?',
      'Who should I credit when I copy a figure from the book?',
      'Does the book give credit for its figures?',
    ])
      expect(asksWhomTheWorkThanks(query), query).toBe(false);
  });

  it('is not a reader thanking the assistant, nor thanks in a topic', () => {
    for (const query of [
      'Thanks, that helps!',
      'Thank you. What is a compost heap?',
      'How do I turn the compost heap?',
    ])
      expect(asksWhomTheWorkThanks(query), query).toBe(false);
  });
});

describe('acknowledgments in ranking', () => {
  it('answers whom the work thanks from its acknowledgments, in words the question never uses', () => {
    expect([...acknowledgmentChunks(chunks)].map((doc) => chunks[doc]!.headingPath.at(-1))).toEqual(
      ['Acknowledgments'],
    );
    // "authors" and "book" are the catalogue section's words, not the acknowledgments'.
    expect(first('Who are the authors of this book grateful to?')).toBe('Acknowledgments 1.00');
    expect(first('Who does the book thank?')).toBe('Acknowledgments 1.00');
    expect(first('Which people does the book credit?')).toBe('Acknowledgments 1.00');
    // Off with the front matter technique, as the licence page is.
    expect(first('Who are the authors of this book grateful to?', false)).toMatch(
      /^Reading Seed Catalogues /,
    );
  });

  it('is known to the router when the book has them', () => {
    const knowledge = (list: typeof chunks) => learnBookKnowledge(list).acknowledgments;
    expect(knowledge(chunks)).toBe(true);
    expect(knowledge(chunks.slice(0, 2))).toBeUndefined();
  });
});
