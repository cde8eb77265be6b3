import { describe, expect, it } from 'vitest';
import { PairTable } from './pair-table.js';

describe('PairTable', () => {
  it('gives what a Map keyed by both numbers gives, through its growth', () => {
    const table = new PairTable(4);
    const reference = new Map<string, number>();
    // A small deterministic generator: many pairs share a first or a second number.
    let seed = 12345;
    const next = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % below;
    };
    for (let i = 0; i < 5_000; i += 1) {
      const first = next(300);
      const second = next(300);
      const value = next(1 << 30);
      table.set(first, second, value);
      reference.set(`${first} ${second}`, value);
    }
    expect(table.size).toBe(reference.size);
    for (let first = 0; first < 300; first += 1)
      for (let second = 0; second < 300; second += 1)
        expect(table.get(first, second)).toBe(reference.get(`${first} ${second}`) ?? -1);
  });
  it('tells (a, b) from (b, a), and says -1 for a pair it does not hold', () => {
    const table = new PairTable();
    table.set(3, 7, 42);
    table.set(0, 0, 0);
    expect([table.get(3, 7), table.get(7, 3), table.get(0, 0), table.get(9, 9)]).toEqual([
      42, -1, 0, -1,
    ]);
  });
});
