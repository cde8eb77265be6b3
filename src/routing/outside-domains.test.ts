import { describe, expect, it } from 'vitest';
import { outsideDomain } from './outside-domains.js';
import { analyzeText } from './query-text.js';

const nothingCovered = () => false;
const domainOf = (query: string, covered: (word: string) => boolean = nothingCovered) =>
  outsideDomain(analyzeText(query), covered);

describe('outsideDomain', () => {
  it.each([
    ["What's the share price of Siemens?", ['share price']],
    ['Should I sell my Qualcomm stock before the summer?', ['stock']],
    ['Is it smart to trade Intel shares this week?', ['shares']],
    ['Who are the biggest shareholders of Boston Dynamics?', ['shareholders']],
    ["What's the market cap of Arm?", ['market cap']],
    ['What is platinum trading at per ounce?', ['ounce']],
  ])('reads %j as a market question', (query, words) => {
    expect(domainOf(query)).toEqual({ domain: 'market', words });
  });
  it.each([
    'Is the Jetson Orin Nano in stock?',
    'How do two nodes share a value without a topic?',
    'What share of the budget goes to the GPU?',
    'How much does the RealSense D435i cost?',
    'Which robots share the same price range as the Go2?',
  ])('leaves %j alone: stock, share and price do not make a market by themselves', (query) => {
    expect(domainOf(query)).toBeUndefined();
  });
  it('reads sports and news words, and two-word names such as "world cup"', () => {
    expect(domainOf('Who won the rugby world cup in 2019?')).toEqual({
      domain: 'sports',
      words: ['rugby', 'world cup'],
    });
    expect(domainOf('Any headlines about humanoid startups?')).toEqual({
      domain: 'news',
      words: ['headlines'],
    });
  });
  it('keeps a sports or news word the book itself uses (a book on robot soccer)', () => {
    expect(domainOf('How do soccer robots pass the ball?', (word) => word === 'soccer')).toBe(
      undefined,
    );
  });
});
