import { setFlagsFromString } from 'node:v8';

/**
 * V8's interrupt budget for a short `cohort` command: how much bytecode a function runs between
 * V8's checks of whether to compile it with its optimising compiler (TurboFan). Node 20's default
 * is 67,584 (66 KB); this is eight times that. A `cohort ingest` of the ROS 2 docs into a new
 * folder runs for about three seconds on two cores, and TurboFan, compiling on V8's background
 * threads, took about a fifth of its CPU (`perf record`: 1.2 of 6.4 s), competing for the cores
 * with the main thread and the engine's. Most of what it compiled runs for a second or less after:
 * with the budget eight times larger, only the hottest functions are optimised, and the run used
 * 0.6 s less CPU and ended about 0.25 s sooner (five alternating runs, measured in
 * docs/measured.md, issue 12's eighth ingest round); sixteen and thirty-two times were no better,
 * no TurboFan at all (`--no-opt`) worse than the default.
 *
 * Only how soon code is optimised changes, not what it computes (optimised code must give the
 * results the bytecode gives), so the ingestion's chunks, index and router are the same. V8 reads
 * the budget where it resets a function's counter, at run time, so setting it once the process
 * runs holds for every function whose counter is reset afterwards. Long-running commands (`serve`,
 * `chat`, `eval`) keep V8's default: they run their hot code long enough to repay compiling it.
 */
export const SHORT_RUN_V8_FLAGS: readonly string[] = ['--interrupt-budget=540672'];

/** The commands that get {@link SHORT_RUN_V8_FLAGS}: one job, then the process ends. */
export const SHORT_RUN_COMMANDS: ReadonlySet<string> = new Set(['ingest']);

/**
 * Sets {@link SHORT_RUN_V8_FLAGS} for this process when `command` is one of
 * {@link SHORT_RUN_COMMANDS} (`set` is V8's own setter unless a test passes another).
 *
 * @example
 * useCliTieringSettings('ingest'); // before the command's modules load
 */
export function useCliTieringSettings(
  command: string,
  set: (flag: string) => void = setFlagsFromString,
): void {
  if (!SHORT_RUN_COMMANDS.has(command)) return;
  for (const flag of SHORT_RUN_V8_FLAGS) set(flag);
}
