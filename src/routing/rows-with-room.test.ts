import { describe, expect, it } from 'vitest';
import { rowsWithRoom } from './rows-with-room.js';

describe('rowsWithRoom', () => {
  it('keeps the array while the row fits', () => {
    const rows = new Float64Array(6);
    expect(rowsWithRoom(rows, 3, 3)).toBe(rows);
  });

  it('doubles it, keeping what was taken and zeros after, when the row does not fit', () => {
    const rows = Float64Array.from([1, 2, 3, 4]);
    const grown = rowsWithRoom(rows, 4, 2);
    expect(grown).not.toBe(rows);
    expect([...grown]).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
  });
});
