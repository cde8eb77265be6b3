/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Milliseconds taken by `fn`, measured with the high-resolution clock. */
export async function timeMs(fn: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Rounds for printing. */
export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** cohort's figure over the peer's, to two significant digits (for times, < 1 means cohort is faster). */
export const ratio = (ours: number, peer: number) => Number((ours / peer).toPrecision(2));
