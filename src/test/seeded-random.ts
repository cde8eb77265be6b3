/**
 * A small seeded generator (mulberry32): numbers in [0, 1) that repeat for a seed, so a fuzz case
 * or an experiment's index build can be found again.
 *
 * @example
 * const random = seededRandom(1);
 * random(); // the same first number for seed 1 on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
