import { describe, expect, it } from 'vitest';
import { goldNotFound } from './gold-not-found.js';

const chunks = [
  { source: 'ch2/index.md', headingPath: ['ROS 2', 'Communication', 'Topics'] },
  { source: 'setup.md', headingPath: ['Setup', '2. Install ROS 2'] },
];

describe('goldNotFound', () => {
  it('lists each label whose file or heading the corpus lacks, once', () => {
    const cases = [
      { query: 'a', gold: ['ch2/index.md#Topics', 'ch2/index.md#Topic'] },
      { query: 'b', gold: ['ch3/index.md#Topics', 'ch2/index.md#Topic'] },
    ];
    expect(goldNotFound(cases, chunks)).toEqual(['ch2/index.md#Topic', 'ch3/index.md#Topics']);
  });

  it('matches as a citation does: any heading on the path, any case, a step number left off', () => {
    const cases = [
      { query: 'a', gold: ['ch2/index.md#communication', 'setup.md#Install ROS 2'] },
      { query: 'b', gold: ['ch2/index.md#ROS 2'] },
    ];
    expect(goldNotFound(cases, chunks)).toEqual([]);
  });
});
