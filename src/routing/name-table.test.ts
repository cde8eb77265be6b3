import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.js';

describe('NameTable', () => {
  it('finds each value by its name, whichever string spells it, and nothing else', () => {
    const table = new NameTable(
      new Map([
        ['glossary', 0],
        ['hardware', 5],
        ['', 10],
      ]),
    );
    const spelled = ['hard', 'ware'].join('');
    expect(table.get(spelled)).toBe(5);
    expect(table.get('hardware')).toBe(5);
    expect(table.get(spelled)).toBe(5);
    expect(table.get('glossary')).toBe(0);
    expect(table.get('')).toBe(10);
    expect(table.get('book')).toBeUndefined();
    expect(table.get('Hardware')).toBeUndefined();
    expect(table.size).toBe(3);
  });
});
