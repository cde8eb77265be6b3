import { describe, expect, it, vi } from 'vitest';
import { formatNumber } from './format-number.js';

describe('formatNumber', () => {
  it("writes numbers as toLocaleString('en-US') does, for the values messages show", () => {
    const values = [0, 7, 999, 1000, 12_000, 1_000_000, 8_000_000, 2_147_483, -1234, 1234.5, 0.25];
    for (const value of values) expect(formatNumber(value)).toBe(value.toLocaleString('en-US'));
    expect(formatNumber(1234.5678)).toBe('1,234.5678');
    expect(formatNumber(Number.NaN)).toBe('NaN');
  });
});

describe('loading cohort', () => {
  it("calls no ICU formatting (toLocaleString's first call costs 65–80 ms of a start)", async () => {
    vi.resetModules();
    const toLocaleString = vi.spyOn(Number.prototype, 'toLocaleString');
    const localeCompare = vi.spyOn(String.prototype, 'localeCompare');
    try {
      await import('../index.js');
      expect(toLocaleString).not.toHaveBeenCalled();
      expect(localeCompare).not.toHaveBeenCalled();
    } finally {
      toLocaleString.mockRestore();
      localeCompare.mockRestore();
    }
  });
});
