import { describe, expect, it } from 'vitest';
import { duplicateKeyMessage, findDuplicateKey } from './duplicate-keys.js';

const check = (text: string) => findDuplicateKey(text, JSON.parse(text));

describe('findDuplicateKey', () => {
  it('finds a key given twice in one object, and says where that object is', () => {
    expect(check('{"query":"a","query":"b"}')).toEqual({ key: 'query', path: '' });
    expect(check('{"a":[{"b":1},{"c":{"d":1,"e":2,"d":3}}]}')).toEqual({
      key: 'd',
      path: 'a.1.c',
    });
    // The same key however it is escaped: "\u0071uery" is "query".
    expect(check('{"query":"a", "\\u0071uery":"b"}')).toEqual({ key: 'query', path: '' });
    expect(check('{"__proto__":1,"__proto__":2}')).toEqual({ key: '__proto__', path: '' });
    expect(duplicateKeyMessage({ key: 'd', path: 'a.1.c' })).toBe('the key "d" twice in "a.1.c"');
  });

  it('accepts distinct keys, the same key in different objects and colons or quotes in strings', () => {
    for (const text of [
      '{}',
      '[]',
      '"a:b"',
      '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
      '{"a:b":"c:d","e":"\\":\\"","f\\"":"\\\\"}',
      ' { "a" : [ 1 , 2 ] , "b" : { } } ',
    ])
      expect(check(text), text).toBeUndefined();
  });

  it('stays linear on a megabyte of keys, escapes or repeated keys', () => {
    const bodies = [
      '{' + Array.from({ length: 150_000 }, () => '"a":1').join(',') + '}',
      '{' + Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',') + '}',
      JSON.stringify({ query: '\\"'.repeat(300_000) }),
      JSON.stringify({ messages: Array.from({ length: 40_000 }, () => ({ role: 'user' })) }),
    ];
    const started = performance.now();
    for (const body of bodies) check(body);
    // A quadratic pass would take minutes here; a linear one takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(check(bodies[0] as string)).toEqual({ key: 'a', path: '' });
  });
});
