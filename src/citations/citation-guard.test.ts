import { describe, expect, it } from 'vitest';
import { createCitationGuard } from './citation-guard.js';

const upTo = (count: number) => (n: number) => n >= 1 && n <= count;

function feed(deltas: string[], known: (n: number) => boolean) {
  const guard = createCitationGuard(known);
  const text = deltas.map((delta) => guard.push(delta)).join('') + guard.flush();
  return { text, cited: guard.cited(), ungrounded: guard.ungrounded() };
}

describe('createCitationGuard', () => {
  it('removes a fabricated marker with its space and records it', () => {
    const out = feed(['ROS 2 is a framework [7]. It uses topics [2].'], upTo(2));
    expect(out.text).toBe('ROS 2 is a framework. It uses topics [1].');
    expect(out.ungrounded).toEqual([7]);
    expect(out.cited).toEqual([2]);
  });

  it('renumbers in order of first use so text and footer agree', () => {
    const out = feed(['B [3], A [1], B again [3].'], upTo(3));
    expect(out.text).toBe('B [1], A [2], B again [1].');
    expect(out.cited).toEqual([3, 1]);
  });

  it('handles markers split across deltas and lists of numbers', () => {
    const out = feed(['Nodes talk ', '[', '1', ', 9', ', 2', ']', ' over DDS [', '2].'], upTo(2));
    expect(out.text).toBe('Nodes talk [1][2] over DDS [2].');
    expect(out.ungrounded).toEqual([9]);
  });

  it('leaves array indexes and markdown links alone', () => {
    const out = feed(['Use joints[0] and [the docs](https://x.y) [1].'], upTo(1));
    expect(out.text).toBe('Use joints[0] and [the docs](https://x.y) [1].');
  });

  it('streams text that holds no marker without delay', () => {
    const guard = createCitationGuard(upTo(1));
    expect(guard.push('Hello world.')).toBe('Hello world.');
    expect(guard.push(' Next')).toBe(' Next');
  });

  it('removes a fabricated marker of any length, whole or split', () => {
    const out = feed(['A [1000] B [999999999999] C [4', '2424242424] D [1].'], upTo(1));
    expect(out.text).toBe('A B C D [1].');
    expect(out.ungrounded).toEqual([1000, 999999999999, 42424242424]);
  });

  it("reads a model's long runs of spaces in linear time", () => {
    // Whitespace scanned again from every position took 3 s for 40,000 spaces, and grew
    // with the square of the run: a model sending a megabyte of spaces blocked the process.
    const started = performance.now();
    const whole = feed([`${' '.repeat(400_000)}x [1]`], upTo(1));
    const pieces = feed([...Array.from({ length: 100_000 }, () => ' '), 'y'], upTo(1));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(whole.text).toBe(`${' '.repeat(400_000)}x [1]`);
    expect(pieces.text).toBe(`${' '.repeat(100_000)}y`);
  });
});
