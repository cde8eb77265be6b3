import { describe, expect, it } from 'vitest';
import { fromWire, toWire, wireKey } from './wire.js';

// The conversions as they were first written (regular expressions): the faster ones must agree.
const wireKeyByPattern = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camelByPattern = (key: string) =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Deterministic pseudo-random keys over an alphabet with capitals, digits, `_`, `.` and more. */
function keys(count: number): string[] {
  const alphabet = 'aZbYc_._0x9MQ_zÉé-ü ';
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: count }, () =>
    Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join(''),
  );
}

describe('wire keys', () => {
  it('snake_case every capital, leaving other characters as they are', () => {
    expect(wireKey('agentUsed')).toBe('agent_used');
    expect(wireKey('routingConfidence.ABc')).toBe('routing_confidence._a_bc');
    expect(wireKey('plain')).toBe('plain');
    expect(wireKey('')).toBe('');
    for (const key of keys(5_000)) expect(wireKey(key)).toBe(wireKeyByPattern(key));
  });

  it('read back into camelCase as before, keys and values alike, at every depth', () => {
    const sample = keys(2_000);
    const wire = Object.fromEntries(sample.map((key, i) => [key, { [key]: [i, { [key]: key }] }]));
    const expected = Object.fromEntries(
      sample.map((key, i) => [
        camelByPattern(key),
        { [camelByPattern(key)]: [i, { [camelByPattern(key)]: key }] },
      ]),
    );
    expect(fromWire(wire)).toEqual(expected);
    expect(toWire({ aB: [{ cD: new Date(0) }] })).toEqual({
      a_b: [{ c_d: '1970-01-01T00:00:00.000Z' }],
    });
  });
});
