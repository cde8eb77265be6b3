import { describe, expect, it } from 'vitest';
import { modelNames, namesModel } from './model-names.js';

describe('model names', () => {
  it('reads letters then digits as a model name', () => {
    expect([...modelNames('Is the Unitree G1 lighter than the H1 or a g5.xlarge?')]).toEqual([
      'g1',
      'h1',
      'g5',
    ]);
    expect([...modelNames('What is a ROS 2 topic?')]).toEqual([]);
  });

  it('finds a model written together or apart, never inside another', () => {
    expect(namesModel('The NVIDIA RTX 4090 has 24GB', 'rtx4090')).toBe(true);
    expect(namesModel('ROS 2 uses DDS', 'ros2')).toBe(true);
    expect(namesModel('g5.xlarge: ~$0.75-1.00 per hour', 'g5')).toBe(true);
    expect(namesModel('Unitree G12 prototype', 'g1')).toBe(false);
    expect(namesModel('The platform cost of a humanoid', 'g1')).toBe(false);
  });
});
