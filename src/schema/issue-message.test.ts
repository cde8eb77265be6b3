import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { oneOf, refusedValue } from './issue-message.js';
import { parseWireInput } from './parse-wire.js';

/** The message parseWireInput throws for `value`, or undefined when it parses. */
function refusal(schema: z.ZodType, value: unknown): string | undefined {
  try {
    parseWireInput(schema, value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const Body = z.object({
  selectedText: z.string().max(10_000).optional(),
  name: z.string().min(3).optional(),
  skill: z.string().min(1).optional(),
  tags: z.array(z.string()).min(1).max(2).optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  stream: z.boolean().optional(),
  mode: z.enum(['sequential', 'parallel']).optional(),
  role: z.literal('user').optional(),
  content: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  options: z.strictObject({ depth: z.number() }).optional(),
  question: z.string(),
  custom: z.string().max(3, 'custom is too long: keep it short').optional(),
});

describe('the messages of request fields that fail a check', () => {
  it('name the field, what was sent and the limit of a size or range', () => {
    const ok = { question: 'x' };
    expect(refusal(Body, { ...ok, selected_text: 'x'.repeat(20_000) })).toBe(
      'selected_text is 20000 characters; the limit is 10000',
    );
    expect(refusal(Body, { ...ok, name: 'ab' })).toBe(
      'name is 2 characters; the least allowed is 3',
    );
    expect(refusal(Body, { ...ok, skill: '' })).toBe('skill must not be empty');
    expect(refusal(Body, { ...ok, tags: ['a', 'b', 'c'] })).toBe(
      'tags has 3 items; the limit is 2',
    );
    expect(refusal(Body, { ...ok, tags: [] })).toBe('tags has 0 items; the least allowed is 1');
    expect(refusal(Body, { ...ok, temperature: 5 })).toBe('temperature is 5; the limit is 2');
    expect(refusal(Body, { ...ok, max_tokens: 0 })).toBe('max_tokens is 0; it must be over 0');
  });

  it('say what type a field takes and what came instead, or that it is missing', () => {
    const ok = { question: 'x' };
    expect(refusal(Body, { ...ok, selected_text: 5 })).toBe('selected_text must be text, not 5');
    expect(refusal(Body, { ...ok, stream: 'yes' })).toBe('stream must be true or false, not "yes"');
    expect(refusal(Body, { ...ok, max_tokens: 1.5 })).toBe(
      'max_tokens must be a whole number, not 1.5',
    );
    expect(refusal(Body, { ...ok, tags: 'a' })).toBe('tags must be a list, not "a"');
    expect(refusal(Body, { ...ok, content: 5 })).toBe(
      'content must be text, a list or null, not 5',
    );
    expect(refusal(Body, {})).toBe('question is required');
  });

  it('name the options a field takes', () => {
    const ok = { question: 'x' };
    expect(refusal(Body, { ...ok, mode: 'both' })).toBe(
      'mode must be one of "sequential", "parallel", not "both"',
    );
    expect(refusal(Body, { ...ok, role: 'robot' })).toBe('role must be "user", not "robot"');
    expect(refusal(Body, { ...ok, mode: 'x'.repeat(100) })).toBe(
      'mode must be one of "sequential", "parallel", not text of 100 characters',
    );
    expect(refusal(Body, { ...ok, options: { depth: 1, width: 2 } })).toBe(
      'options has a field it does not take: "width"',
    );
  });

  it("keep a schema's own message and zod's for a check on the whole body", () => {
    expect(refusal(Body, { question: 'x', custom: 'long' })).toBe(
      'custom is too long: keep it short',
    );
    const Whole = z.object({ a: z.string().optional() }).refine((body) => body.a !== undefined, {
      message: 'send a',
    });
    expect(refusal(Whole, {})).toBe('send a');
    expect(refusal(z.string().max(1), 'ab')).toBe(
      'Too big: expected string to have <=1 characters',
    );
  });
});

describe('refusedValue', () => {
  it('words a value refused outside a schema as a schema refusal is worded: "must be …, not …"', () => {
    // Variables and flags said `COHORT_PORT must be a number, got "abc"` while settings and
    // requests said `… must be a number, not "abc"`: two wordings of one refusal.
    expect(refusedValue('COHORT_PORT', 'a number', 'abc')).toBe(
      'COHORT_PORT must be a number, not "abc"',
    );
    expect(refusedValue('--split', oneOf(['tune', 'heldout']), 'test')).toBe(
      '--split must be one of "tune", "heldout", not "test"',
    );
    expect(refusedValue('maxSteps', 'a whole number of at least 1', 0)).toBe(
      'maxSteps must be a whole number of at least 1, not 0',
    );
    expect(refusedValue('--session', 'an id', 'a'.repeat(101))).toBe(
      '--session must be an id, not text of 101 characters',
    );
    expect(oneOf(['user'])).toBe('"user"');
  });
});
