import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a `cohort` command's process: regular expressions are compiled to bytecode
 * without V8's bytecode peephole pass. V8 compiles an expression to bytecode on its first run (and
 * to machine code on its second), and for a large expression the peephole pass over its bytecode is
 * most of that first compilation: routing's definition expression (9 KB of alternatives, tried at
 * several words of every question) took 160 ms to compile to bytecode with it and 49 ms without
 * (Node 20, one run of `detectIntentCues` in a new process); `findCues` in a cold `cohort ask`'s
 * CPU profile 146 → 50 ms. The pass only makes the bytecode faster to interpret, and an expression
 * runs as bytecode once before it is compiled to machine code.
 *
 * Why this flag and not `--no-regexp-tier-up` (straight to machine code, 24 ms): set while the
 * process runs, that one went with processes dying (the test suite's workers in both full runs
 * with it, none without; a `cohort ingest` child ended by a signal): V8 reads it in several places,
 * its regular expression builtins among them, and Node warns that changing a flag after start is
 * undefined. The peephole setting is read in one place, where bytecode is generated, and the
 * bytecode is valid either way.
 *
 * V8's settings belong to the process: `cohort` sets this for itself (see `main`); a program that
 * imports the library keeps its own.
 */
export const CLI_REGEXP_V8_FLAGS: readonly string[] = ['--no-regexp-peephole-optimization'];

/**
 * Sets {@link CLI_REGEXP_V8_FLAGS} for this process (`set` is V8's own setter unless a test passes
 * another). V8 reads it when it generates an expression's bytecode, so it holds for every
 * expression not run before.
 *
 * @example
 * useCliRegexpSettings(); // then load and run the command
 */
export function useCliRegexpSettings(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of CLI_REGEXP_V8_FLAGS) set(flag);
}
