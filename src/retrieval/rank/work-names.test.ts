import { describe, expect, it } from 'vitest';
import {
  namesTheWork,
  taughtAsCourse,
  theClassAsTheWork,
  withoutCoverageAsk,
  withoutTheWork,
  withoutWorkNamedAfterThis,
  workNameAt,
  workNamedIn,
  workNamePattern,
  workNameOf,
} from './work-names.js';

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter(Boolean);

describe('the work named in a question', () => {
  it('reads "this class" as the work, and "the class" and "program" as code', () => {
    expect(namesTheWork(words('How long is this class?'))).toBe(true);
    expect(namesTheWork(words('What does the class do?'))).toBe(false);
    expect(namesTheWork(words('How long does the program take to run?'))).toBe(false);
    expect(workNamedIn('What does the class do?')).toBeUndefined();
    expect(workNamedIn('Does This Class teach welding?')).toBe('This Class');
  });

  it('reads the usual names with a pointer, "whole" between and a plural', () => {
    expect(workNamedIn('Give me a summary of the whole textbook.')).toBe('the whole textbook');
    expect(workNamedIn('What do the docs cover?')).toBe('the docs');
    expect(namesTheWork(words('Who are your guides for?'))).toBe(true);
    expect(workNameAt(words('the entire course'), 2)).toBe(true);
    expect(workNameAt(words('a book'), 1)).toBe(false);
  });

  it('is one pattern for every reader', () => {
    const covers = new RegExp(String.raw`\bdoes\s+${workNamePattern('the|this')}\s+cover\b`, 'i');
    expect(covers.test('Does the guide cover Nav2?')).toBe(true);
    expect(covers.test('Does this class cover cooking?')).toBe(true);
    expect(covers.test('Does the class cover cooking?')).toBe(false);
  });

  it('takes "this class" out of what is looked for, not "this book"', () => {
    expect(withoutWorkNamedAfterThis('Does this class need a GPU?')).toBe('Does this need a GPU?');
    expect(withoutWorkNamedAfterThis('What does this book cover?')).toBe(
      'What does this book cover?',
    );
    expect(withoutTheWork('and what does that guide cover')).toBe('and what does   cover');
  });
});

describe('workNameOf', () => {
  const page = (title: string, text: string) => ({ title, headingPath: [title], text });
  it("is the first of the work's names on its opening page", () => {
    expect(workNameOf([page('ROS 2 Documentation', 'The Robot Operating System (ROS) is …')])).toBe(
      'documentation',
    );
    expect(
      workNameOf([
        page('Introduction', 'Welcome to the Physical AI book. This comprehensive guide covers …'),
      ]),
    ).toBe('book');
    expect(workNameOf([page('Start here', 'These docs explain the API.')])).toBe('documentation');
  });
  it('is undefined when the page names itself none of them, or there is no page', () => {
    expect(workNameOf([page('Welcome', 'Plants need water and some text.')])).toBeUndefined();
    expect(workNameOf([])).toBeUndefined();
  });
});

const opening = (text: string) => [{ title: 'Introduction', headingPath: [], text }];

describe('"the class" as the work, for a work taught as a course', () => {
  it('reads from the opening page whether the work is a course', () => {
    // The textbook's introduction: a course by its weekly plan, though it calls itself a book.
    expect(
      taughtAsCourse(
        opening(
          'The book includes weekly learning modules designed to be completed over a 12-13 week period.',
        ),
      ),
    ).toBe(true);
    expect(taughtAsCourse(opening('An eight-week course for allotment beginners.'))).toBe(true);
    // The ROS 2 docs' index.rst, and "of course".
    expect(
      taughtAsCourse(
        opening(
          'The Robot Operating System (ROS) is a set of software libraries and tools for building robot applications. This site contains the documentation for ROS 2.',
        ),
      ),
    ).toBe(false);
    expect(taughtAsCourse(opening('You can, of course, build from source.'))).toBe(false);
  });

  it('reads "the class" as "this class" where it stands for the work, not before a noun', () => {
    expect(theClassAsTheWork('Does the class need a GPU?')).toBe('Does this class need a GPU?');
    expect(theClassAsTheWork('Does the class require a robot?')).toBe(
      'Does this class require a robot?',
    );
    expect(theClassAsTheWork('Do I need a GPU for the class?')).toBe(
      'Do I need a GPU for this class?',
    );
    expect(theClassAsTheWork('Who is the class for?')).toBe('Who is this class for?');
    expect(theClassAsTheWork('What does the class labeling step output?')).toBe(
      'What does the class labeling step output?',
    );
  });
});

describe('the coverage asked of the work', () => {
  it('takes out the work and its verb before what it is asked to cover', () => {
    expect(withoutCoverageAsk('Does the documentation discuss Windows?')).toBe('Does   Windows?');
    expect(withoutCoverageAsk('Do the docs mention Zenoh?').replace(/\s+/g, ' ')).toBe('Do Zenoh?');
    expect(
      withoutCoverageAsk('Is there anything in the documentation about lifecycle nodes?').replace(
        /\s+/g,
        ' ',
      ),
    ).toBe('Is there anything about lifecycle nodes?');
  });

  it('drops the work and its verb ending a question about which things it names', () => {
    // "What humanoid robots does the book discuss?" ranked sections that say "discuss" (a word
    // the book uses three times) above the humanoid platforms; "recommend" put the lab options'
    // "Recommendation:" lines above the cloud providers.
    const squeezed = (text: string) => withoutCoverageAsk(text).replace(/\s+/g, ' ');
    expect(squeezed('Which grippers does the guide describe?')).toBe('Which grippers ?');
    expect(squeezed('what simulators does this book really recommend?')).toBe('what simulators ?');
    expect(squeezed('Which sensors do the docs list.')).toBe('Which sensors .');
  });

  it('leaves a question about what the work covers, and the work named as a subject', () => {
    expect(withoutCoverageAsk('What does the book cover?')).toBe('What does the book cover?');
    expect(withoutCoverageAsk('How long does the course take?')).toBe(
      'How long does the course take?',
    );
    expect(withoutCoverageAsk('What sensors does the robot in the book use?')).toBe(
      'What sensors does the robot in the book use?',
    );
    expect(withoutCoverageAsk('How do I build the documentation?')).toBe(
      'How do I build the documentation?',
    );
  });
});

describe('the coverage asked of the work, on hostile questions', () => {
  it('takes linear time on a question of 2,000 characters (the longest one asked)', () => {
    // The verb ending a question about which things the work names was found behind a lookbehind
    // that V8 tried backwards at every position: "what is xxx…" (one word of 1,990 letters) took
    // 15 s of one core in POST /chat, and every other request waited (outside tester's fuzz).
    const questions = [
      `what is  ${'x'.repeat(1990)}`,
      `GPU snake_case " ${'step'.repeat(495)}`,
      `which ${'a-'.repeat(990)} does the book cover?`,
      `what ${'docs '.repeat(395)}`,
    ];
    for (const question of questions) {
      const started = performance.now();
      withoutCoverageAsk(question);
      expect(performance.now() - started).toBeLessThan(1000);
    }
    expect(withoutCoverageAsk(`which ${'a-'.repeat(990)} does the book cover?`)).toBe(
      `which ${'a-'.repeat(990)}  ?`,
    );
  });
});
