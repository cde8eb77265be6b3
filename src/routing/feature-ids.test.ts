import { describe, expect, it } from 'vitest';
import { FeatureListBuilder, featureKeys } from './feature-ids.js';
import { detectIntentCues } from './intent-cues.js';
import { DEFAULT_FEATURE_WEIGHTS, extractFeatureList, extractFeatures } from './query-features.js';
import { analyzeText } from './query-text.js';

const QUESTIONS = [
  'What is a topic, and what is a topic for?',
  'hardware hardware hardware GPU GPU',
  'Which GPU do I need for Isaac Sim in week seven?',
  'the the the of of a',
];

describe('feature lists', () => {
  it('hold what the feature map holds: the same keys in the same order, the same weights to the bit', () => {
    const builder = new FeatureListBuilder();
    for (const question of QUESTIONS) {
      const text = analyzeText(question);
      const cues = detectIntentCues(text.words);
      const scores = { hardware: 0.35, glossary: 0.1, capstone: 0 };
      const map = extractFeatures(text, cues, scores, DEFAULT_FEATURE_WEIGHTS, {
        charGrams: false,
      });
      const matches = Object.fromEntries(
        Object.entries(scores).map(([agent, score]) => [agent, { score }]),
      );
      const list = extractFeatureList(text, cues, matches, DEFAULT_FEATURE_WEIGHTS, builder);
      expect(featureKeys(list)).toEqual([...map.keys()]);
      expect(Array.from({ length: list.count }, (_, i) => list.values[i])).toEqual([
        ...map.values(),
      ]);
    }
  });
});
