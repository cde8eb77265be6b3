import { describe, expect, it } from 'vitest';
import { clipText } from './clip-text.js';

describe('clipText', () => {
  it('keeps text at or under the cap as it is', () => {
    expect(clipText('abc', 3)).toBe('abc');
  });
  it('cuts longer text and says how many characters were left out', () => {
    expect(clipText('x'.repeat(5_000), 4_000)).toBe(
      `${'x'.repeat(4_000)}… (1,000 more characters)`,
    );
  });
});
