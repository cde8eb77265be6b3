/**
 * Softmax of logits divided by a temperature, shifted by their maximum so large ones cannot
 * overflow. The intent classifier (with its fitted temperature) and the arbiter (temperature 1:
 * dividing by 1 changes no bit) share it.
 *
 * @example
 * softmax([0, 0]); // [0.5, 0.5]
 */
export function softmax(logits: readonly number[], temperature = 1): number[] {
  const scaled = logits.map((value) => value / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((value) => Math.exp(value - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

/**
 * {@link softmax} computed in `values` itself, with the same operations in the same order (so the
 * same bits): the hot path of every route allocates no arrays for it.
 */
export function softmaxInPlace(values: Float64Array, temperature = 1): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < values.length; c += 1) {
    const scaled = (values[c] as number) / temperature;
    values[c] = scaled;
    if (scaled > max) max = scaled;
  }
  let sum = 0;
  for (let c = 0; c < values.length; c += 1) {
    const exp = Math.exp((values[c] as number) - max);
    values[c] = exp;
    sum += exp;
  }
  for (let c = 0; c < values.length; c += 1) values[c] = (values[c] as number) / sum;
  return values;
}
