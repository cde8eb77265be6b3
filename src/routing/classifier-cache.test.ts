import { featureKeys } from './feature-ids.js';
import { describe, expect, it } from 'vitest';
import { createBookRegistry } from './book-registry.js';
import { loadClassifier, saveClassifier } from './classifier-cache.js';
import { restoreIntentClassifier } from './intent-classifier.js';
import { buildRoutingModel } from './routing-model.js';

const registry = createBookRegistry();
const model = buildRoutingModel(registry.all(), registry.defaultAgent.name);
const trained = model.classifier;
/** Through JSON, as it is saved in the store's build cache and in files. */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const questions = [
  ...registry.all().flatMap((agent) => [...agent.examples, ...agent.keywords]),
  'What is a ROS 2 topic?',
  'Which GPU do I need for Isaac Sim?',
  'wanderlust',
];

describe('saved intent classifier', () => {
  it('classifies every question exactly as the trained one, to the bit', () => {
    const restored = restoreIntentClassifier(
      loadClassifier(roundTrip(saveClassifier(trained.model)))!,
    );
    expect(restored.stats).toEqual(trained.stats);
    for (const question of questions) {
      const { features, bundles } = model.analyze(question);
      expect(restored.classify(features, bundles)).toEqual(trained.classify(features, bundles));
      for (const feature of featureKeys(features))
        expect(restored.knows(feature)).toBe(trained.knows(feature));
    }
    expect(questions.length).toBeGreaterThan(200);
  });

  it('a model built with it analyses as one that trained; its folds still train, from the same samples', () => {
    const restored = restoreIntentClassifier(
      loadClassifier(roundTrip(saveClassifier(trained.model)))!,
    );
    const loaded = buildRoutingModel(registry.all(), registry.defaultAgent.name, {
      classifier: restored,
    });
    expect(loaded.classifier).toBe(restored);
    for (const question of questions) {
      const a = loaded.analyze(question);
      const b = model.analyze(question);
      expect({ ...a, bundles: a.bundles.map((x) => x.key) }).toEqual({
        ...b,
        bundles: b.bundles.map((x) => x.key),
      });
    }
    // A fold still trains, from the same samples.
    const excluded = (agent: string, example: number) => agent === 'glossary' && example === 0;
    expect(loaded.fold(excluded, 0.3).classifier.model).toEqual(
      model.fold(excluded, 0.3).classifier.model,
    );
  });

  it('reads back nothing that is not a classifier it wrote', () => {
    const saved = roundTrip(saveClassifier(trained.model)) as Record<string, unknown>;
    const broken = (patch: Record<string, unknown>) => loadClassifier({ ...saved, ...patch });
    expect(loadClassifier(saved)).toBeDefined();
    expect(loadClassifier(null)).toBeUndefined();
    expect(broken({ labels: [] })).toBeUndefined();
    expect(broken({ labels: ['a', 'a'] })).toBeUndefined();
    expect(broken({ temperature: 0 })).toBeUndefined();
    expect(broken({ features: (saved.features as string[]).slice(1) })).toBeUndefined();
    expect(broken({ logProbabilities: 'AAAA' })).toBeUndefined();
    const nan = Buffer.from(
      new Float64Array((saved.features as string[]).length * registry.all().length).fill(NaN)
        .buffer,
    );
    expect(broken({ logProbabilities: nan.toString('base64') })).toBeUndefined();
    expect(broken({ stats: { ...(saved.stats as object), labels: ['x'] } })).toBeUndefined();
  });
});
