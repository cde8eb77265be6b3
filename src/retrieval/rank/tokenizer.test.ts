import { describe, expect, it } from 'vitest';
import { mineAcronyms } from './acronyms.js';
import { renderProgressBar } from '../ingest/progress-bar.js';
import { analyze, tokenize } from './tokenizer.js';
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
