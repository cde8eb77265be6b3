import { describe, expect, it } from 'vitest';
import { learnBookKnowledge } from './book-knowledge.js';
import { decodeTrainedRouter, encodeTrainedRouter } from './trained-router-cache.js';

const knowledge = learnBookKnowledge(
  ['The Jetson Orin runs the robot.', 'A costmap marks obstacles.', 'Nodes talk over topics.'].map(
    (text) => ({ domain: 'module_info', text, title: 'Ch', headingPath: ['Ch'] }),
  ),
);
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('the saved trained router', () => {
  it('round-trips book knowledge with its passages', () => {
    const withPassages = { ...knowledge, passages: { costmap: [1] } };
    const decoded = decodeTrainedRouter(
      encodeTrainedRouter({ knowledge: withPassages, calibration: null }),
    );
    expect(decoded?.knowledge.passages).toEqual({ costmap: [1] });
  });
  it.each([
    ['a passage list of strings', { costmap: ['one'] }],
    ['a passage list that is not a list', { costmap: 1 }],
    ['negative chunk numbers', { costmap: [-1] }],
  ])('is not loaded with %s', (_, passages) => {
    const saved = bytes({ knowledge: { ...knowledge, passages }, calibration: null });
    expect(decodeTrainedRouter(saved)).toBeUndefined();
  });
});
