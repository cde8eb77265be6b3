import { describe, expect, it } from 'vitest';
import { countOf } from './plural.js';

describe('countOf', () => {
  it('agrees the noun with the count', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(2, 'chunk')).toBe('2 chunks');
    expect(countOf(1, 'query', { many: 'queries' })).toBe('1 query');
    expect(countOf(3, 'query', { many: 'queries' })).toBe('3 queries');
    expect(countOf(12_000, 'token', { format: true })).toBe('12,000 tokens');
  });
});
