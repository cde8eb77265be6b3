/**
 * The two things a comparison asks about: "What is the difference between static balance and
 * dynamic balance?", "How do feature-based and direct SLAM methods differ?", "P3 vs P4". An
 * answer that quotes one side only ("- Static Balance: …") does not compare anything.
 */
const FORMS: readonly RegExp[] = [
  /\bdifferen(?:ce|ces|t)\s+between\s+(.+?)\s+and\s+(.+)$/i,
  /\bhow\s+(?:do|does|did)\s+(.+?)\s+and\s+(.+?)\s+(?:differ|compare)\b/i,
  /\bhow\s+(?:do|does|did)\s+(.+?)\s+(?:differ|compare)\s+(?:from|to|with)\s+(.+)$/i,
  /\bhow\s+(?:is|are)\s+(.+?)\s+(?:different|distinct)\s+from\s+(.+)$/i,
  /\bcompare\s+(.+?)\s+(?:and|with|to|against)\s+(.+)$/i,
  /^(?:what(?:'s|\s+is)\s+)?(.+?)\s+(?:vs\.?|versus)\s+(.+)$/i,
];

const ARTICLE = /^(?:a|an|the|ros 2's|its|their)\s+/i;
// Where a side stops and the question's setting begins: "late fusion in VLA systems?".
const SETTING = /\s+(?:in|within|for|when|according|on|at|inside|used|as)\b.*$/i;

function side(raw: string): string {
  return raw
    .replace(/[?!.]+\s*$/, '')
    .replace(/\s+(?:differ|compare|are different|is different)\b.*$/i, '')
    .replace(SETTING, '')
    .replace(ARTICLE, '')
    .trim();
}

/**
 * The two sides a question compares, as written ("static balance", "dynamic balance"); one word
 * before a shared noun takes the noun ("forward and inverse kinematics" → "forward kinematics",
 * "inverse kinematics"). Undefined when the question compares nothing.
 *
 * @example
 * comparedSides('How do forward and inverse kinematics differ?'); // ['forward kinematics', 'inverse kinematics']
 */
export function comparedSides(query: string): [string, string] | undefined {
  for (const form of FORMS) {
    const match = form.exec(query.trim());
    if (!match?.[1] || !match[2]) continue;
    let first = side(match[1]);
    const second = side(match[2]);
    if (!first || !second || first.split(/\s+/).length > 6 || second.split(/\s+/).length > 6)
      continue;
    const firstWords = first.split(/\s+/);
    const secondWords = second.split(/\s+/);
    const shared = secondWords.at(-1) ?? '';
    // "static and dynamic balance", "forward and inverse kinematics": the common noun ending the
    // second side is the first's too, when the first is a lone modifier (a lower-case word with no
    // noun ending); "ROS 2 … ROS 1" and "Go2 … H1" are names, not modifiers.
    const last = firstWords.at(-1) ?? '';
    if (
      secondWords.length > 1 &&
      firstWords.length === 1 &&
      /^[a-z][a-z-]+$/.test(last) &&
      /^[a-z][a-z-]+$/.test(shared) &&
      !/(?:s|ion|ing|ment|ics)$/.test(last)
    )
      first = `${first} ${shared}`;
    return [first, second];
  }
  return undefined;
}
