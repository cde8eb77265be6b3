/** Model names: a word of letters then digits ("G1", "Go2", "g5", "A10G", "RTX4090"). */
const MODEL_NAME = /\b[a-z]+\d+[a-z0-9]*\b/gi;

/**
 * The model names `text` writes, lower-cased.
 *
 * @example
 * modelNames('How heavy is the Unitree G1?'); // Set { 'g1' }
 */
export function modelNames(text: string): Set<string> {
  return new Set(modelNamesWritten(text).keys());
}

/**
 * The model names `text` writes, lower-cased, each with its first spelling as written ("g1" →
 * "G1"), in the order written.
 */
export function modelNamesWritten(text: string): Map<string, string> {
  const written = new Map<string, string>();
  for (const [name] of text.matchAll(MODEL_NAME))
    if (!written.has(name.toLowerCase())) written.set(name.toLowerCase(), name);
  return written;
}

/**
 * True when `text` names `model` (lower case, as {@link modelNames} gives it), written together
 * or apart: a question's "RTX4090" or "ros2" is the book's "RTX 4090" or "ROS 2".
 */
export function namesModel(text: string, model: string): boolean {
  const joined = text.toLowerCase().replace(/([a-z])[\s-]+(\d)/g, '$1$2');
  const at = joined.indexOf(model);
  if (at < 0) return false;
  // "g1" in "g1" or "g1.xlarge", not in "rg12"; the next occurrence may be the whole word.
  for (let from = at; from >= 0; from = joined.indexOf(model, from + 1)) {
    const before = joined[from - 1] ?? ' ';
    const after = joined[from + model.length] ?? ' ';
    if (!/[a-z0-9]/.test(before) && !/[0-9]/.test(after)) return true;
  }
  return false;
}
