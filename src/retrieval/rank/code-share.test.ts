import { describe, expect, it } from 'vitest';
import { prepareDocument } from '../ingest/ingest.js';
import { asksForCode, asksHowTo, codeShare } from './code-share.js';
import { createRanker } from './ranker.js';

describe('codeShare', () => {
  it('is the share of letters and digits in fenced code', () => {
    expect(codeShare('Water the bed.')).toBe(0);
    expect(codeShare('Run:\n\n```\npump start\n```')).toBeCloseTo(9 / 12);
  });

  it('counts a block drawn with box-drawing characters as prose', () => {
    expect(codeShare('Beds:\n\n```\ngarden/\n├── roses/\n└── herbs/\n```')).toBe(0);
  });
});

describe('asksForCode', () => {
  it('reads how-to questions, requests for a command and questions that write code', () => {
    expect(asksForCode('How do I start the pump?')).toBe(true);
    expect(asksForCode('Which command starts the pump?')).toBe(true);
    expect(asksForCode('What does pump_ctl --dry-run do?')).toBe(true);
    expect(asksForCode('What is a pump?')).toBe(false);
  });
});

describe('asksHowTo', () => {
  it('reads the ask where the question puts it, after its situation', () => {
    expect(asksHowTo('How do I start the pump?')).toBe(true);
    expect(asksHowTo('  how to drain the tank')).toBe(true);
    expect(asksHowTo('I filled the tank with the wrong mix. How do I drain it?')).toBe(true);
    expect(asksHowTo('The pump hums but nothing flows; how can we check the valve?')).toBe(true);
    expect(asksHowTo('My pump stalls, and how should I restart it?')).toBe(true);
    expect(asksHowTo('I never learnt how to prime a pump')).toBe(true);
  });

  it('leaves questions that ask how something works or whether it can be done', () => {
    expect(asksHowTo('How does the pump work?')).toBe(false);
    expect(asksHowTo('The tank is full. How long does it last?')).toBe(false);
    expect(asksHowTo('Can I run the pump dry?')).toBe(false);
    expect(asksHowTo('Somehow do I need a valve?')).toBe(false);
  });
});

describe('codeShare technique', () => {
  // A tutorial whose commands repeat the words, and the page that says what a valve is.
  const tutorial = Array.from({ length: 4 }, (_, i) => [
    `## Step ${i + 1}`,
    '',
    'Run:',
    '',
    '```',
    `valve open garden valve_${i} --valve-timer 5`,
    `valve close garden valve_${i}`,
    '```',
    '',
  ]).flat();
  const chunks = prepareDocument(
    'garden.md',
    [
      '# Garden',
      '',
      ...tutorial,
      '## Watering beds',
      '',
      'Each bed of the garden is fed through a valve, a tap between the garden main and the bed.',
      'Beds dry at different speeds, so each is opened on its own.',
      '',
    ].join('\n'),
  ).chunks;
  const first = (query: string, codeShare: boolean) =>
    createRanker(chunks, { techniques: { wordnet: false, codeShare } })
      .rank(query, { limit: 1 })[0]
      ?.chunk.headingPath.at(-1);

  it('answers what something is from prose, not from commands that repeat its name', () => {
    expect(first('What is a garden valve?', false)).toMatch(/^Step/);
    expect(first('What is a garden valve?', true)).toBe('Watering beds');
  });

  it('leaves a how-to question to the commands', () => {
    expect(first('How do I open a garden valve?', true)).toBe(
      first('How do I open a garden valve?', false),
    );
  });
});
