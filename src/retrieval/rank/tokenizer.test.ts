import { readFileSync } from 'node:fs';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { mineAcronyms } from './acronyms.js';
import { renderProgressBar } from '../ingest/progress-bar.js';
import { STOPWORDS } from './stopwords.js';
import { analyze, tokenize } from './tokenizer.js';
import { figureWithUnit, unitWord } from './units.js';
import { openWordNet } from './wordnet.js';

describe('text analysis', () => {
  it('keeps identifiers and versioned names whole', () => {
    expect(tokenize('Run rqt_graph on ROS 2 with a g5.2xlarge')).toEqual([
      'run',
      'rqt_graph',
      'rqt',
      'graph',
      'on',
      'ros2',
      'with',
      'a',
      'g5.2xlarge',
      'g5',
      '2xlarge',
    ]);
    expect(tokenize('ROS2 and ROS 2')).toEqual(['ros2', 'and', 'ros2']);
  });

  it('reads a unit as one word however it is written', () => {
    expect(tokenize('32GB, or 16 gigs')).toEqual([
      '32gb',
      '32',
      'gigabyte',
      'or',
      '16',
      'gigabyte',
    ]);
    expect(tokenize('typically 10W-30W')).toEqual([
      'typically',
      '10w',
      '10',
      'watt',
      '30w',
      '30',
      'watt',
    ]);
    expect(analyze('How many watts?')).toContain('watt');
    expect(tokenize('2.4GHz, 47 kilos')).toEqual(['2.4ghz', '2.4', 'gigahertz', '47', 'kilogram']);
    // A letter alone is no unit, nor is a model or a dimension written like one.
    expect(tokenize('w m g5 3D 5G h1')).toEqual(['w', 'm', 'g5', '3d', '5g', 'h1']);
  });

  it('drops stopwords and stems', () => {
    expect(analyze('How are the nodes communicating?')).toEqual(['node', 'commun']);
  });

  it('reads the tokens the expression reads, and analyses each as the index always has', () => {
    // The tokenizer as it was written with the expression: the scan of the characters, and the
    // one lookup per word of letters, give the same tokens and terms.
    const referenceTokens = (text: string) =>
      [
        ...text
          .replace(/\b([A-Z]{2,})\s+(\d)\b(?![.\d])/g, '$1$2')
          .toLowerCase()
          .replace(/['’]s\b/g, '')
          .matchAll(/[a-z0-9]+(?:[._][a-z0-9]+)*/g),
      ].flatMap(([token]) => {
        const unit = unitWord(token);
        if (unit) return [unit];
        const figure = figureWithUnit(token);
        if (figure) return [token, ...figure];
        const compound = token.includes('_') || (token.includes('.') && /[a-z]/.test(token));
        return [token, ...(compound ? token.split(/[._]/).filter(Boolean) : [])];
      });
    const referenceTerms = (text: string, extra?: ReadonlySet<string>) =>
      referenceTokens(text)
        .filter((t) => !STOPWORDS.has(t) && !extra?.has(t) && (t.length > 1 || /\d/.test(t)))
        .map((t) => (/^[a-z]+$/.test(t) ? stemmer(t) : t));
    const texts = [
      'Run rqt_graph on ROS 2 with a g5.2xlarge, Python 3.10 and NAV 2.',
      'a._b x. _y a__b a.b.c 1.2.3 ..x.. x_.y end_ .start 3d 5G h1 w m v',
      "32GB, 16 gigs, 10W-30W, 2.4GHz, 47 kilos and 1.5m; the robot's arm's joints’s",
      'İstanbul ǅ ﬁle, the Kelvin sign K, naïve café: Übung macht den Meister',
      'I a 1 x 9 the is of: single letters and digits',
      readFileSync(new URL('../ingest/fixtures/book/nested/topics.rst', import.meta.url), 'utf8'),
      readFileSync(new URL('../ingest/fixtures/book/guide.mdx', import.meta.url), 'utf8'),
    ];
    const extra = new Set(['topic', 'node', 'ros2', 'gigabyte']);
    for (const text of texts) {
      expect(tokenize(text)).toEqual(referenceTokens(text));
      // Twice: the second time the words of letters are answered from what the first learnt.
      expect(analyze(text)).toEqual(referenceTerms(text));
      expect(analyze(text)).toEqual(referenceTerms(text));
      expect(analyze(text, extra)).toEqual(referenceTerms(text, extra));
    }
  });

  it('mines acronyms from long forms in parentheses', () => {
    const found = mineAcronyms([
      'Visual Simultaneous Localization and Mapping (VSLAM) builds maps.',
      'The Zero Moment Point (ZMP) must stay in the support polygon.',
      'Random words here (XYZ) do not spell it.',
    ]);
    expect(found.get('vslam')).toEqual(new Set(['visual simultaneous localization and mapping']));
    expect(found.get('zmp')).toEqual(new Set(['zero moment point']));
    expect(found.has('xyz')).toBe(false);
  });

  it('finds WordNet relatives through base forms', () => {
    const wordnet = openWordNet();
    try {
      expect(wordnet.related('tall')).toContain('height');
      expect(wordnet.related('halts')).toContain('stop');
      expect(wordnet.related('zzzxq')).toEqual([]);
    } finally {
      wordnet.close();
    }
  });

  it('renders a progress bar', () => {
    expect(renderProgressBar(1, 4, 8)).toBe('[##------] 1/4  25%');
    expect(renderProgressBar(0, 0, 4)).toBe('[####] 0/0 100%');
  });
});
