import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import {
  DEFAULT_SMOOTHING,
  restoreIntentClassifier,
  type FeatureBundle,
  type IntentClassifier,
  trainIntentClassifier,
  type TrainingSample,
} from './intent-classifier.js';
import { detectIntentCues } from './intent-cues.js';
import { analyzeText } from './query-text.js';

const sample = (label: string, ...features: string[]): TrainingSample => ({
  label,
  features: new Map(features.map((feature) => [feature, 1])),
  heldOut: true,
});

describe('trainIntentClassifier', () => {
  const samples = [
    ...Array.from({ length: 6 }, (_, i) => sample('a', 'w:apple', `w:a${i}`, 'w:shared')),
    ...Array.from({ length: 6 }, (_, i) => sample('b', 'w:banana', `w:b${i}`, 'w:shared')),
  ];
  const classifier = trainIntentClassifier(samples);

  it('learns which features go with which label and returns probabilities that sum to 1', () => {
    const result = classifier.classify(new Map([['w:banana', 1]]));
    expect(result.ranked[0]?.label).toBe('b');
    expect(result.ranked[0]?.probability).toBeGreaterThan(0.5);
    expect(Object.values(result.probabilities).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(result.coverage).toBe(1);
  });
  it("keys the probabilities in the labels' order whatever the ranking, with the ranking's numbers", () => {
    // 'b' ranks first here, 'a' in the next: both objects list 'a' then 'b' (one shape).
    for (const feature of ['w:banana', 'w:apple']) {
      const result = classifier.classify(new Map([[feature, 1]]));
      expect(Object.keys(result.probabilities)).toEqual(['a', 'b']);
      for (const { label, probability } of result.ranked)
        expect(result.probabilities[label]).toBe(probability);
    }
  });
  it('is uniform on features it never saw', () => {
    const result = classifier.classify(new Map([['w:zebra', 1]]));
    expect(result.coverage).toBe(0);
    expect(result.probabilities.a).toBeCloseTo(0.5);
  });
  it('fits the temperature by leave-one-out and reports it', () => {
    expect(classifier.stats).toMatchObject({
      labels: ['a', 'b'],
      looSamples: 12,
      calibrated: true,
      looAccuracy: 1,
    });
    expect(classifier.stats.temperature).toBeGreaterThan(0);
  });
  it('keeps the default temperature when there are too few examples', () => {
    const small = trainIntentClassifier([sample('a', 'w:x'), sample('b', 'w:y')]);
    expect(small.stats.calibrated).toBe(false);
    expect(small.classify(new Map([['w:x', 1]])).ranked[0]?.label).toBe('a');
  });
  it('holds log((count + α) / (label total + α × vocabulary)) per feature, which a restored copy classifies with to the bit', () => {
    // Counted here with the plain maps the classifier used to keep per feature (it now counts in
    // one flat array): the same numbers, to the bit.
    const weighted = [...samples, { label: 'a', features: new Map([['w:apple', 0.5]]) }];
    const trained = trainIntentClassifier(weighted);
    const labels = ['a', 'b'];
    const counts = new Map<string, number[]>();
    const totals = [0, 0];
    for (const { label, features } of weighted) {
      const c = labels.indexOf(label);
      for (const [feature, value] of features) {
        const row = counts.get(feature) ?? [0, 0];
        row[c] = (row[c] as number) + value;
        totals[c] = (totals[c] as number) + value;
        counts.set(feature, row);
      }
    }
    const alpha = DEFAULT_SMOOTHING;
    const expected = new Map(
      [...counts].map(([feature, row]) => [
        feature,
        row.map((count, c) => Math.log(count + alpha) - Math.log(totals[c]! + alpha * counts.size)),
      ]),
    );
    const model = trained.model;
    expect([...model.logProbabilities.keys()]).toEqual([...expected.keys()]);
    for (const [feature, logs] of expected)
      expect([...model.logProbabilities.get(feature)!]).toEqual(logs);
    // Made once, when first read.
    expect(trained.model).toBe(model);
    const restored = restoreIntentClassifier(model);
    for (const query of [['w:apple'], ['w:banana', 'w:shared'], ['w:a1', 'w:b2', 'w:zebra']]) {
      const features = new Map(query.map((feature) => [feature, 1]));
      expect(restored.classify(features)).toEqual(trained.classify(features));
    }
  });
  it('sums a bundle the same way when it is kept, past the limit of kept bundles, and read by two classifiers', () => {
    const bundle = (key: string, ...features: string[]): FeatureBundle => ({
      key,
      features: () => features.map((feature) => [feature, 0.5] as const),
      summedBy: undefined,
      summedAt: -1,
    });
    const words = { apple: ['w:apple', 'w:a1', 'w:zebra'], late: ['w:apple', 'w:shared'] };
    // A classifier of its own, meeting the bundles for the first time: the reference.
    const firstRead = (judge: IntentClassifier, ...keys: Array<keyof typeof words>) =>
      restoreIntentClassifier(judge.model).classify(
        new Map([['w:banana', 1]]),
        keys.map((key) => bundle(key, ...words[key])),
      );
    const trained = trainIntentClassifier(samples);
    const other = trainIntentClassifier(samples.slice(1));
    const apple = bundle('apple', ...words.apple);
    for (const judge of [trained, other, trained])
      expect(judge.classify(new Map([['w:banana', 1]]), [apple])).toEqual(
        firstRead(judge, 'apple'),
      );
    // 20,000 more bundles: their rows outgrow their first array, and then no more are kept.
    for (let i = 0; i < 20_000; i += 1)
      trained.classify(new Map(), [bundle(`b${i}`, 'w:banana', `w:b${i % 6}`)]);
    const late = bundle('late', ...words.late);
    for (let i = 0; i < 2; i += 1)
      expect(trained.classify(new Map([['w:banana', 1]]), [late, apple])).toEqual(
        firstRead(trained, 'late', 'apple'),
      );
    expect(late.summedBy).toBeUndefined();
  });
  it('refuses to train on nothing', () => {
    expect(() => trainIntentClassifier([])).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    try {
      trainIntentClassifier([]);
    } catch (error) {
      expect(isCohortError(error, 'invalid_input')).toBe(true);
    }
  });
});

describe('detectIntentCues', () => {
  const intent = (query: string) => detectIntentCues(analyzeText(query).words).intent;
  it('recognises the question forms of the spec', () => {
    expect(intent('What is a topic?')).toBe('definition');
    expect(intent('Can you tell me what Xacro is?')).toBe('definition');
    expect(intent('How do ROS 2 topics work?')).toBe('explanation');
    expect(intent('How much RAM do I need for Isaac Sim?')).toBe('specs');
    expect(intent('how should we sequence the milestones')).toBe('guidance');
    expect(intent('my robot keeps crashing into walls')).toBe('troubleshooting');
    expect(intent('hello')).toBe('general');
  });
  it('does not take "what is the best X for Y" as a definition', () => {
    expect(intent('What is the best LIDAR for indoor mapping on a budget?')).toBe('specs');
  });
});
