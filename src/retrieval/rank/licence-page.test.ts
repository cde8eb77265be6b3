import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { asksLeaveToUseTheWork, isLicencePage, licencePageChunks } from './licence-page.js';
import { DEFAULT_TECHNIQUES, createRanker } from './ranker.js';

// A small gardening course with a licence page, and a chapter whose words ("share", "post",
// "print") a question asking leave also uses.
const chunks = [
  ...prepareDocument(
    'readme.md',
    [
      '# Welcome',
      'Welcome to Growing Vegetables, a guide to soil, seeds, watering and harvest.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'chapters/garden/index.md',
    [
      '# Garden Clubs',
      '## Sharing Seeds',
      'Clubs share seeds at a swap table; post the dates on the noticeboard and print labels for each packet.',
      '## Translating Seed Packets',
      'Seed packets from abroad can be translated with a plant dictionary: the Latin name is the same in every language.',
    ].join('\n\n'),
  ).chunks,
  ...prepareDocument(
    'LICENSE.md',
    [
      '# License',
      '## Terms',
      'You are free to copy and redistribute the material in any medium or format, and to adapt it for any purpose, even commercially.',
      '## Attribution',
      'You must give appropriate credit and indicate if changes were made.',
    ].join('\n\n'),
  ).chunks,
];

const sources = (query: string, frontMatter = true) =>
  createRanker(chunks, { techniques: { ...DEFAULT_TECHNIQUES, frontMatter } })
    .rank(query, { limit: 3 })
    .map((ranked) => `${ranked.chunk.source}#${ranked.chunk.headingPath.at(-1)}`);

describe('isLicencePage', () => {
  it('is a page named or titled as the licence, not a page that mentions one', () => {
    expect(isLicencePage({ source: 'license.md', title: 'License' })).toBe(true);
    expect(isLicencePage({ source: 'docs/COPYING', title: 'Copying' })).toBe(true);
    expect(isLicencePage({ source: 'legal.md', title: 'Copyright and licence' })).toBe(true);
    expect(isLicencePage({ source: 'terms-of-use.md', title: 'Terms' })).toBe(true);
    expect(isLicencePage({ source: 'licensing-plates.md', title: 'Number plates' })).toBe(false);
    expect(isLicencePage({ source: 'chapters/garden/index.md', title: 'Garden Clubs' })).toBe(
      false,
    );
    expect([...licencePageChunks(chunks)].map((doc) => chunks[doc]!.headingPath.at(-1))).toEqual([
      'Terms',
      'Attribution',
    ]);
  });
});

describe('asksLeaveToUseTheWork', () => {
  it('reads leave to copy, share, adapt or use the work or a part of it', () => {
    for (const query of [
      'Can I translate a chapter into Spanish and put it on my blog?',
      'Am I allowed to use this material in a paid workshop I run for a company?',
      'Is it ok to post chapter 3 on my website?',
      'May I adapt the diagrams for my company slides?',
      'Can we print the book and sell copies at our school?',
      'Do I need permission to include the figures in my thesis?',
      "Can I legally use this book's figures in my lecture slides?",
      'Would it be okay to put the slides on GitHub?',
      // A reader's looser words for a piece of the work: "stuff" read as a subject the book
      // does not cover sent this to the fallback's "The book does not cover …".
      'can I use stuff from the book in my workshop slides?',
      'Am I allowed to share bits of the textbook with my study group?',
      'could we reuse some pictures from this guide in our classroom?',
    ])
      expect(asksLeaveToUseTheWork(query), query).toBe(true);
  });

  it('does not read a question on doing something, or on a thing that is not the work', () => {
    for (const query of [
      'Can I use the book for self-study?',
      'Can I publish images from the camera?',
      'Can I publish a text message to a topic?',
      'How do I share a workspace with my team?',
      'Can I use ROS 2 commercially?',
      'Which chapter covers sharing data between nodes?',
      'How do garden clubs share seeds?',
      // An outside review found these read as leave: the work is not what is copied.
      'Can I modify the launch file from chapter 5 to add a second robot?',
      'Can I print the contents of a topic?',
      'Am I allowed to copy answers during the course exam?',
      "Can I share the course textbook's recipe for banana bread with my mom?",
      'Am I allowed to use a Raspberry Pi instead of a Jetson for the course?',
      'Am I allowed to redistribute the NVIDIA Isaac Sim binaries used in the course?',
      'Can I use pictures from my camera in my slides?',
    ])
      expect(asksLeaveToUseTheWork(query), query).toBe(false);
  });
});

describe('the licence page in ranking', () => {
  it('answers leave to use the work from the licence page, its own words picking the section', () => {
    // Without it, the chapter that shares the question's words ("translate", "post") comes first.
    const query = 'Can I translate a chapter into Spanish and post it on my blog?';
    expect(sources(query, false)[0]).toBe('chapters/garden/index.md#Translating Seed Packets');
    expect(sources(query)[0]).toMatch(/^LICENSE\.md#/);
    expect(sources('Do I have to give credit if I print the chapters for my club?')[0]).toBe(
      'LICENSE.md#Attribution',
    );
    expect(sources('Can our club print labels for each seed packet?')[0]).toBe(
      'chapters/garden/index.md#Sharing Seeds',
    );
    expect(sources('Am I allowed to print the book and give credit?')[0]).toBe(
      'LICENSE.md#Attribution',
    );
  });
});
