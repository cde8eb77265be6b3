import { describe, expect, it } from 'vitest';
import { isTableRule } from './markdown-table.js';

describe('isTableRule', () => {
  it("reads GFM's delimiter rows: any number of dashes, alignment colons, outer pipes or none", () => {
    for (const rule of ['| --- | --- |', '|-|:-:|', '| :--- | ---: |', '--- | ---', '  |---|'])
      expect(isTableRule(rule), rule).toBe(true);
  });

  it('is not a thematic break, a row, or prose that opens with dashes', () => {
    for (const line of ['---', '| a | b |', '--- see below', '| --- note |', '|  |', ''])
      expect(isTableRule(line), line).toBe(false);
  });
});
