import { describe, expect, it } from 'vitest';
import { softmax, softmaxInPlace } from './softmax.js';

describe('softmax', () => {
  it('gives probabilities, flattened by a temperature, and does not overflow', () => {
    expect(softmax([0, 0])).toEqual([0.5, 0.5]);
    const sharp = softmax([2, 1, 0]);
    const flat = softmax([2, 1, 0], 4);
    expect(sharp.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(flat[0]! - flat[2]!).toBeLessThan(sharp[0]! - sharp[2]!);
    expect(softmax([1000, 0])[0]).toBe(1);
  });

  it('computes the same bits in place', () => {
    for (const [logits, temperature] of [
      [[0.3, -2.5, 7.125, 1e-9, -0.0001], 1],
      [[12.5, 12.5, -40, 3], 0.7],
    ] as const) {
      expect(Array.from(softmaxInPlace(Float64Array.from(logits), temperature))).toEqual(
        softmax(logits, temperature),
      );
    }
  });
});
