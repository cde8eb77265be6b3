import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import {
  askingAboutTheWork,
  frontMatterChunks,
  isFrontMatter,
  workQuestionTerms,
} from './front-matter.js';
import { DEFAULT_TECHNIQUES, createRanker } from './ranker.js';

// A small gardening course: an opening page, two chapters and a licence page that, like a real
// book's, says "this book" and "content" more often than the opening page does.
const chunks = [
  ...prepareDocument(
    'readme.md',
    [
      '# Welcome',
      'Welcome to Growing Vegetables. This guide covers soil, seeds, watering and harvest for allotment beginners.',
      '## Audience',
      'It is written for first-time growers and school garden clubs; no previous experience is assumed.',
      '## Schedule',
      'The lessons run over eight weeks, one each weekend, from March to May.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'chapters/soil/index.md',
    [
      '# Soil',
      '## Compost',
      'Compost feeds the soil; turn the heap every two weeks and keep it as damp as a wrung sponge.',
      '## Drainage',
      'Clay soil holds water, so raise the beds and dig in grit where puddles stay.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'license.md',
    [
      '# License',
      'This book and its content may be shared under CC BY 4.0. For questions about this book or its content, write to the editors. This book quotes content from other books under their own terms.',
    ].join('\n\n'),
  ).chunks,
];

const sources = (query: string, frontMatter: boolean) =>
  createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, frontMatter } })
    .rank(query, { limit: 3 })
    .map((ranked) => `${ranked.chunk.source}#${ranked.chunk.headingPath.at(-1)}`);

describe('isFrontMatter', () => {
  it('is the opening page at the corpus root, not a chapter index', () => {
    expect(isFrontMatter('intro.md')).toBe(true);
    expect(isFrontMatter('index.rst')).toBe(true);
    expect(isFrontMatter('README.md')).toBe(true);
    expect(isFrontMatter('chapters/soil/index.md')).toBe(false);
    expect(isFrontMatter('license.md')).toBe(false);
    expect(frontMatterChunks(chunks)).toEqual(Int32Array.of(0, 1, 2));
  });
});

describe('askingAboutTheWork', () => {
  it('reads a question about the work with no other topic as only that', () => {
    expect(askingAboutTheWork('What is this guide about?')).toBe('only');
    expect(askingAboutTheWork('Who is the course meant for?')).toBe('only');
    expect(askingAboutTheWork('how many weeks is the whole course')).toBe('only');
    expect(askingAboutTheWork('Quick one: how many weeks is the course?')).toBe('only');
    expect(askingAboutTheWork('Give me a summary of the whole textbook.')).toBe('only');
    expect(askingAboutTheWork('I have just opened this handbook. What will it teach me?')).toBe(
      'only',
    );
  });

  it('reads "this class" as the work, and "the class" as a topic', () => {
    // An outside review: "How long is this class?" was answered from "Class Labeling" lines.
    expect(askingAboutTheWork('How long is this class?')).toBe('only');
    expect(askingAboutTheWork('Is this class good for beginners?')).toBe('only');
    expect(askingAboutTheWork('What does the class do?')).toBeUndefined();
    expect(askingAboutTheWork('How long does the program take to run?')).toBeUndefined();
  });

  it("reads the work's names in its phrases as it reads them alone (work-names.ts)", () => {
    // "for this course" was the work's and "for this class" was not; "the class" needed a GPU as
    // the work while "What does the class do?" was code's.
    expect(askingAboutTheWork('Do I need a GPU for this class?')).toBe('also');
    expect(askingAboutTheWork('Who is this class for?')).toBe('only');
    expect(askingAboutTheWork('Does the class require a compiler?')).toBeUndefined();
    expect(askingAboutTheWork('Does this class require a compost heap?')).toBe('also');
  });

  it('reads a phrase about the work beside other topics as that too', () => {
    expect(askingAboutTheWork('Can I follow along without a compost heap?')).toBe('also');
  });

  it('does not read a topic asked through the work as a question about it', () => {
    // An outside review found these read as questions about the work: a program is also software,
    // and "teach me about X" asks about X.
    expect(askingAboutTheWork('How long does the program take to run?')).toBeUndefined();
    expect(askingAboutTheWork('What will this course teach me about compost?')).toBeUndefined();
    expect(askingAboutTheWork('What does the book say about quaternions?')).toBeUndefined();
    expect(askingAboutTheWork('What does the book say about drainage?')).toBeUndefined();
    expect(askingAboutTheWork('How often should compost be turned?')).toBeUndefined();
  });
});

describe('the front matter in ranking', () => {
  it('answers a question about the work from the opening page, not the licence', () => {
    // Without it, the licence's "this book … content" outranks the page that says what it covers.
    expect(sources('What content does this book have?', false)[0]).toBe('license.md#License');
    expect(sources('What content does this book have?', true)[0]).toMatch(/^readme\.md#/);
    expect(sources('Who is the course meant for, and how long does it take?', true)).toEqual(
      expect.arrayContaining(['readme.md#Audience', 'readme.md#Schedule']),
    );
  });

  it('leaves a section on the topic first when the question names one', () => {
    expect(sources('Can I follow along if my plot is clay where puddles stay?', true)[0]).toBe(
      'chapters/soil/index.md#Drainage',
    );
    expect(sources('What does the book say about turning compost?', true)[0]).toBe(
      'chapters/soil/index.md#Compost',
    );
  });
});

describe('workQuestionTerms', () => {
  it("is the question's words but the work's name, and reader words for who it is for", () => {
    expect(workQuestionTerms('What does this book cover?')).toEqual(['cover']);
    expect(workQuestionTerms('Who is the course meant for?')).toEqual(
      expect.arrayContaining(['meant', 'student', 'beginn']),
    );
    expect(workQuestionTerms('How long is the course?')).not.toContain('student');
    // An outside review: "What does this class cover?" also quoted the book's "Class Labeling".
    expect(workQuestionTerms('What does this class cover?')).toEqual(['cover']);
  });
});

describe('what following the work requires', () => {
  const book = [
    ...prepareDocument(
      'readme.md',
      [
        '# Welcome',
        'Welcome to Growing Vegetables, a guide to soil, seeds, watering and harvest.',
        '## Parts',
        'Part I covers soil and spades; Part II covers seeds.',
        '## Before You Start',
        'Every lesson is conceptual, rather than requiring tools or a garden setup.',
      ].join('\n\n'),
    ).chunks,
    ...prepareDocument(
      'chapters/tools/index.md',
      [
        '# Tools',
        '## Spades',
        'A spade with a steel blade turns clay; buy a spade with a long handle.',
      ].join('\n\n'),
    ).chunks,
  ];

  it('reads "do I need X to follow this guide" as a question about the work', () => {
    expect(askingAboutTheWork('Do I need a spade to follow this guide?')).toBe('also');
    expect(askingAboutTheWork('Do I need a spade for this course?')).toBe('also');
    expect(askingAboutTheWork('Do I need a spade?')).toBeUndefined();
    // An outside review: the opening page's "rather than requiring hardware" was not quoted.
    expect(askingAboutTheWork('Does this class require hardware?')).toBe('also');
    expect(askingAboutTheWork('Does the course really need a spade?')).toBe('also');
    expect(askingAboutTheWork('Does the spade need oiling?')).toBeUndefined();
  });

  it('answers it from where the opening page says what the work requires', () => {
    // Before, the opening page's section naming spades came first, and its words were quoted.
    const first = createRanker(book).rank('Do I need a spade to follow this guide?', { limit: 1 });
    expect(first[0]?.chunk.headingPath.at(-1)).toBe('Before You Start');
    expect(workQuestionTerms('Do I need a spade to follow this guide?')).toEqual(
      expect.arrayContaining(['requir', 'setup']),
    );
  });
});

describe('"the class" over a course and over docs', () => {
  const corpus = (opening: string) => [
    ...prepareDocument('intro.md', `# Welcome\n\n${opening}`).chunks,
    ...prepareDocument(
      'chapters/seeds.md',
      '# Seeds\n\n## Seed Classes\n\nClass labeling: each packet names the class of its seed, and the class decides the sowing depth.',
    ).chunks,
  ];
  const first = (opening: string, query: string) =>
    createRanker(corpus(opening)).rank(query, { limit: 1 })[0]?.chunk.source;

  it('is the work over a course: its opening page answers what the class needs', () => {
    const course =
      'Welcome to Growing Vegetables, an eight-week course. All lessons are conceptual, requiring no hardware or tools.';
    expect(first(course, 'Does the class need a spade?')).toBe('intro.md');
    expect(createRanker(corpus(course)).readQuery?.('Does the class need a spade?').text).toBe(
      'Does this class need a spade?',
    );
  });

  it('is a class over docs that are no course', () => {
    const docs =
      'Welcome to the Seed API documentation. All of its tools are conceptual, requiring no hardware.';
    expect(first(docs, 'Does the class need a spade?')).toBe('chapters/seeds.md');
  });
});
