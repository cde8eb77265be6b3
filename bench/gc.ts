import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's collector, exposed at run time (no `--expose-gc` needed), or undefined when refused. */
export function collectGarbage(): (() => void) | undefined {
  const global = globalThis as { gc?: () => void };
  if (global.gc) return global.gc;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}
