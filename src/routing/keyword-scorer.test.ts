import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agents/index.js';
import { createFuzzyLexicon } from '../retrieval/index.js';
import { englishDictionary } from './english-dictionary.js';
import { canHandle, compileKeywords, keywordTypo, scoreKeywords } from './keyword-scorer.js';
import { analyzeText, stemWord } from './query-text.js';

const agent = (name: string, keywords: string[]) =>
  defineAgent({
    name,
    domain: name,
    description: name,
    keywords,
    systemPrompt: 'Answer from the book.',
  });
const capstone = agent('capstone', ['capstone', 'milestone', 'final project']);
const hardware = agent('hardware', ['gpu', 'jetson', 'isaac sim']);

describe('canHandle', () => {
  it('keeps one keyword below the 0.7 threshold and two above it', () => {
    expect(canHandle(capstone, 'tell me about the capstone')).toBe(0.6);
    expect(canHandle(capstone, 'Capstone milestones')).toBeGreaterThanOrEqual(0.7);
  });
  it('matches a multi-word keyword as a phrase, strong on its own', () => {
    expect(canHandle(capstone, 'What is due for the FINAL PROJECT?')).toBe(0.8);
    expect(canHandle(capstone, 'the project is final')).toBe(0);
  });
  it('matches stems and tolerates a small typo, with a lower weight', () => {
    expect(canHandle(capstone, 'milestones')).toBe(0.6);
    expect(canHandle(capstone, 'capstoen demo')).toBeCloseTo(0.54);
    expect(canHandle(capstone, 'cap demo')).toBe(0);
  });
  it('matches a name of letters and digits only where it is not glued to more of them', () => {
    const robots = agent('robots', ['x7', 'k9', 'rover']);
    expect(canHandle(robots, 'How tall is the X7?')).toBe(0.6);
    expect(canHandle(robots, "the x7's battery, and the k9-lite")).toBeGreaterThan(0.8);
    // "x7b" and "k90" are other names that the word split cuts to the same words.
    expect(canHandle(robots, 'How do I renew an X7B permit?')).toBe(0);
    expect(canHandle(robots, 'the k90 gearbox')).toBe(0);
    // Written on its own too, it counts.
    expect(canHandle(robots, 'the x7b or the x7')).toBe(0.6);
  });
  it('is 0 for unrelated text', () => {
    expect(canHandle(hardware, 'tell me a joke')).toBe(0);
  });
});

describe('scoreKeywords', () => {
  it('scores every compiled agent in one pass and names what matched', () => {
    const scores = scoreKeywords(
      compileKeywords([capstone, hardware]),
      analyzeText('Which Jetson for the capstoen?'),
    );
    expect(scores.hardware).toEqual({ score: 0.6, matched: ['jetson'] });
    expect(scores.capstone?.matched).toEqual(['capstone (~capstoen)']);
  });
  it('counts a repeated keyword once', () => {
    const scores = scoreKeywords(compileKeywords(hardware), analyzeText('gpu gpu gpu'));
    expect(scores.hardware?.score).toBe(0.6);
  });
});

describe('createFuzzyLexicon', () => {
  it('corrects one insertion, deletion, substitution or swap and leaves short words alone', () => {
    const lexicon = createFuzzyLexicon(['capstone', 'lifecycle', 'gazebo', 'ram']);
    expect(lexicon.correct('capston')).toBe('capstone');
    expect(lexicon.correct('lifecyle')).toBe('lifecycle');
    expect(lexicon.correct('gazebbo')).toBe('gazebo');
    expect(lexicon.correct('capstnoe')).toBe('capstone');
    expect(lexicon.correct('rim')).toBeUndefined();
    expect(lexicon.correct('completely')).toBeUndefined();
  });
  it('takes away a letter typed too many on a known word of four letters', () => {
    const lexicon = createFuzzyLexicon(['urdf', 'node', 'ram']);
    expect(lexicon.correct('urrdf')).toBe('urdf');
    expect(lexicon.correct('nodee')).toBe('node');
    // Three-letter words stay out of reach: "rams" is not read as "ram".
    expect(lexicon.correct('ramm')).toBeUndefined();
  });
});

describe('keywordTypo', () => {
  const compiled = compileKeywords(capstone);
  const isWord = (word: string) => englishDictionary().has(word);
  it('is the keyword stem a misspelt word is read as', () => {
    expect(keywordTypo(compiled, 'capstne', stemWord('capstne'), isWord)).toBe('capston');
  });
  it('is undefined for an English word, a keyword itself and a short word', () => {
    expect(keywordTypo(compiled, 'capsule', stemWord('capsule'), isWord)).toBeUndefined();
    expect(keywordTypo(compiled, 'capstone', stemWord('capstone'), isWord)).toBeUndefined();
    expect(keywordTypo(compiled, 'cap', 'cap', isWord)).toBeUndefined();
  });
  it('gives scoreKeywords, handed them, the same scores as it finds itself', () => {
    const query = analyzeText('capstne milestnes for the final projct');
    const known = query.words.map((word, i) => {
      const typo = keywordTypo(compiled, word, query.stems[i]!, isWord);
      return { keywordTypo: typo, keywords: compiled.byFirstStem.get(typo ?? query.stems[i]!) };
    });
    expect(known.filter((word) => word.keywordTypo).length).toBeGreaterThan(0);
    expect(scoreKeywords(compiled, query, { known })).toEqual(
      scoreKeywords(compiled, query, { isWord }),
    );
  });
});
