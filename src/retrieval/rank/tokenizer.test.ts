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
