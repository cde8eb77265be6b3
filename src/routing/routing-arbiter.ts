import { readFileSync } from 'node:fs';
import { packagePath } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { compileArbiter, type CompiledArbiter } from './compiled-arbiter.js';
import { PackedArbiterFile, packedFromFile, type PackedArbiter } from './packed-arbiter.js';

/** Where the book agents' fitted arbiter lives, beside the agent files it was fitted for. */
export const ROUTING_ARBITER_FILE = packagePath('agents', 'routing-arbiter.json');

let compiled: CompiledArbiter | undefined;

/**
 * The book assistant's fitted arbiter (`agents/routing-arbiter.json`, written by
 * `scripts/fit-routing-arbiter.ts` from the tuning halves of `eval/routing-*.jsonl` over the
 * textbook and the sample book), read, validated and compiled once, when the first router needs it.
 */
export function ROUTING_ARBITER(): CompiledArbiter {
  compiled ??= compileArbiter(readArbiter(ROUTING_ARBITER_FILE));
  return compiled;
}

/**
 * Reads and validates an arbiter file (packed, see {@link PackedArbiterFile}); a missing or
 * malformed one is a `CohortError` naming it.
 */
export function readArbiter(path: string): PackedArbiter {
  const unusable = (problem: string, cause?: unknown) =>
    new CohortError(
      'invalid_input',
      `The routing arbiter ${path} ${problem}. Fit it again with \`npx tsx scripts/fit-routing-arbiter.ts\`, or set routing.arbiter to false.`,
      { file: path, ...(cause === undefined ? {} : { cause }) },
    );
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw unusable(
      `could not be read (${cause instanceof Error ? cause.message : String(cause)})`,
      cause,
    );
  }
  const parsed = PackedArbiterFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw unusable(
      `is not a valid model: ${issue?.path.join('.') || 'top level'}: ${issue?.message}`,
    );
  }
  return packedFromFile(parsed.data);
}
