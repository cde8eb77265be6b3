import { describe, expect, it } from 'vitest';
import { pointsElsewhere } from './pointer-sentences.js';

describe('pointsElsewhere', () => {
  it('is true of a sentence that announces or refers to other text', () => {
    expect(pointsElsewhere('The text below explains the derivation of the range.')).toBe(true);
    expect(pointsElsewhere('See the domain ID article for details on ROS domain IDs.')).toBe(true);
    expect(pointsElsewhere('For more information about the design, see the design PR.')).toBe(true);
  });

  it('is false of a sentence that states something', () => {
    expect(pointsElsewhere('Choose a domain ID between 0 and 101, inclusive.')).toBe(false);
    expect(pointsElsewhere('The robot sees the obstacle below the table.')).toBe(false);
  });
});
