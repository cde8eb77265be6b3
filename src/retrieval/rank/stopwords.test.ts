import { describe, expect, it } from 'vitest';
import { withoutAskingManner } from './stopwords.js';

describe('withoutAskingManner: how the answer should be put is not what is asked', () => {
  it('drops the manner at the end or the start of a question', () => {
    expect(withoutAskingManner('odometry in plain words?')).toBe('odometry?');
    expect(withoutAskingManner('What is a costmap, in a nutshell?')).toBe('What is a costmap?');
    expect(withoutAskingManner('lidar vs radar, briefly')).toBe('lidar vs radar');
    expect(withoutAskingManner('In simple terms, what does a gimbal do?')).toBe(
      'what does a gimbal do?',
    );
    expect(withoutAskingManner('Describe dead reckoning in one sentence.')).toBe(
      'Describe dead reckoning.',
    );
  });

  it('keeps the words when they are part of what is asked', () => {
    // Mid-question the phrase is the subject's: a robot that reports in plain words, a linear joint.
    for (const query of [
      'How does the rover report in plain words what failed?',
      'Which joint moves in a line rather than rotating?',
      'in plain words?',
    ])
      expect(withoutAskingManner(query)).toBe(query);
  });
});
