import { describe, expect, it } from 'vitest';
import { describeCause } from './describe-cause.js';

describe('describeCause', () => {
  it("gives an Error's message, and a thrown object's message field", () => {
    expect(describeCause(new Error('disk full'))).toBe('disk full');
    expect(describeCause({ message: 'the folder is gone', code: 'ENOENT' })).toBe(
      'the folder is gone',
    );
    expect(describeCause(new TypeError(''))).toBe('TypeError');
  });

  it('gives the JSON of a thrown plain object, not "[object Object]"', () => {
    // What PGlite's file system throws: not an Error, no message.
    const errno = { name: 'ErrnoError', errno: 44, stack: '<generic error, no stack>' };
    expect(describeCause(errno)).toBe('{"name":"ErrnoError","errno":44}');
    expect(describeCause({ message: '', reason: 7n })).toBe('{"message":"","reason":"7"}');
    expect(describeCause({})).toBe('an object');
  });

  it('names an object JSON cannot write by its class and keys', () => {
    class Failure {
      self: unknown = this;
    }
    expect(describeCause(new Failure())).toBe('Failure with self');
  });

  it('gives strings and other values as they are', () => {
    expect(describeCause('out of memory')).toBe('out of memory');
    expect(describeCause('')).toBe('an empty string');
    expect(describeCause(undefined)).toBe('undefined');
    expect(describeCause(null)).toBe('null');
    expect(describeCause(42)).toBe('42');
  });

  it('bounds what it gives', () => {
    expect(describeCause({ message: 'x'.repeat(10_000) })).toHaveLength(300);
    expect(describeCause({ list: Array.from({ length: 5_000 }, (_, i) => i) }, 80)).toMatch(
      /^\{"list":\[0,1,2,.{50,}…$/,
    );
    expect(describeCause('y'.repeat(500), 80)).toHaveLength(80);
  });
});
