import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { buildLexicalIndex } from './lexical-index.js';
import { expandQuestionForms, QUESTION_FORM_WEIGHT } from './question-forms.js';
import { BM25_ONLY, createRanker } from './ranker.js';

const chunks = prepareDocument(
  'rover.md',
  '# Rovers\n\n## Safety Metrics\n\nCollision rate and clearance of a rover per run.\n\n## Driving Rovers\n\nA rover drives on wheels; the rover turns on flat floors.\n',
).chunks;

describe('question forms', () => {
  it('adds the section words a question form is answered under, when the corpus has them', () => {
    const index = buildLexicalIndex(chunks);
    const expansions = new Map<string, number>();
    const forms = expandQuestionForms(
      'How do I judge whether a rover drives safely?',
      index,
      new Map([['rover', 1]]),
      expansions,
    );
    expect(forms).toEqual(['evaluation', 'safety']);
    // "metric" and "safety" occur in the corpus; "evaluation" and "benchmark" do not.
    expect([...expansions]).toEqual([
      ['metric', QUESTION_FORM_WEIGHT],
      ['safeti', QUESTION_FORM_WEIGHT],
    ]);
  });

  it('adds nothing for a question with no recognised form or a word it already has', () => {
    const index = buildLexicalIndex(chunks);
    const expansions = new Map<string, number>();
    expandQuestionForms('rover wheels', index, new Map(), expansions);
    expect(expansions.size).toBe(0);
    expandQuestionForms(
      'safety metric for rovers, how to measure',
      index,
      new Map([
        ['metric', 1],
        ['safeti', 1],
      ]),
      expansions,
    );
    expect(expansions.size).toBe(0);
  });

  it('ranks the section named by the form above one that only repeats the topic words', () => {
    const query = 'How do I judge a rover?';
    const heading = (hits: { chunk: { headingPath: string[] } }[]) =>
      hits[0]?.chunk.headingPath.at(-1);
    expect(heading(createRanker(chunks, { techniques: BM25_ONLY }).rank(query))).toBe(
      'Driving Rovers',
    );
    expect(
      heading(
        createRanker(chunks, { techniques: { ...BM25_ONLY, questionForms: true } }).rank(query),
      ),
    ).toBe('Safety Metrics');
  });

  it('reads what a reader should be able to do by the end as a question of learning outcomes', () => {
    const course = prepareDocument(
      'pottery.md',
      '# Pottery\n\n## Throwing on the Wheel\n\nCentre the clay on the wheel, then open and pull the walls.\n\n## Learning Outcomes\n\nStudents can centre clay and pull a cylinder on the wheel.\n',
    ).chunks;
    const query = 'What should I be able to do on the wheel by the end of the course?';
    const top = (questionForms: boolean) =>
      createRanker(course, { techniques: { ...BM25_ONLY, questionForms } })
        .rank(query)[0]
        ?.chunk.headingPath.at(-1);
    expect(top(false)).toBe('Throwing on the Wheel');
    expect(top(true)).toBe('Learning Outcomes');
    const expansions = new Map<string, number>();
    expect(
      expandQuestionForms(
        'Will the robot be able to climb stairs?',
        buildLexicalIndex(course),
        new Map(),
        expansions,
      ),
    ).not.toContain('outcomes');
  });
});

describe('questions about a course', () => {
  // A course with a schedule, its learning paths and its outcomes, and a chapter on a topic whose
  // heading shares the words of "by the end of the course".
  const course = prepareDocument(
    'course.md',
    [
      '# Gardening Course',
      '## Week 4: Beds',
      'This week covers soil testing, compost heaps, mulching, drainage ditches and raised beds for the vegetable garden, with a worksheet and a short quiz.',
      '## Week 5: Sowing',
      'This week covers choosing seeds, sowing depths, seed trays, germination and thinning for the vegetable garden, with a worksheet and a short quiz.',
      '## Flexible Learning Paths',
      '- Soil focused: Weeks 1-4, 9',
      '- Seed focused: Weeks 5-8, 9',
      '## Course Learning Outcomes',
      'Students who complete it can plan, sow and harvest a vegetable bed.',
      '## End-to-End Harvest Planning',
      'Planning a season end to end, from the first sowing to the last harvest of the course.',
    ].join('\n\n'),
  ).chunks;
  const first = (query: string) =>
    createRanker(course).rank(query, { limit: 1 })[0]?.chunk.headingPath.at(-1);

  it('answers which weeks suit one focus from the learning paths, not one week', () => {
    // Three blind sets asked "I only care about ROS 2. Which weeks should I follow?" of the
    // textbook and were answered from a single week's contents.
    expect(first('I only care about soil. Which weeks should I follow?')).toBe(
      'Flexible Learning Paths',
    );
    expect(first('Can I just do the seeds part of the course? Which weeks?')).toBe(
      'Flexible Learning Paths',
    );
  });

  it('reads "by the end of the course" as asking for outcomes, not about an end', () => {
    const index = buildLexicalIndex(course);
    const terms = new Map([
      ['end', 1],
      ['cours', 1],
    ]);
    expandQuestionForms('What can I do by the end of the course?', index, terms, new Map());
    expect([...terms.keys()]).toEqual(['cours']);
    expect(first('What will I be able to do by the end of the course?')).toBe(
      'Course Learning Outcomes',
    );
  });
});
