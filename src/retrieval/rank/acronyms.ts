/** Words an acronym may skip or take one letter from ("Localization and Mapping" → "LAM" or "LM"). */
const SMALL_WORDS = new Set(['and', 'of', 'the', 'for', 'in', 'on', 'to', 'a', 'an', 'with', '&']);
const DEFINITION = /((?:[A-Za-z][\w'-]*\s+){1,8}?)\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?)\)/g;

/** Acronym ↔ long form pairs found in a text, long forms lower-case. */
export type AcronymMap = Map<string, Set<string>>;

/**
 * Matches the acronym's letters against the initials of the words before it, right to left, and
 * returns the long form, or undefined when the words do not spell the acronym.
 */
function longFormFor(acronym: string, before: string): string | undefined {
  const letters = acronym
    .replace(/s$/, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
  const words = before
    .trim()
    .split(/[\s-]+/)
    .filter(Boolean);
  let l = letters.length - 1;
  let w = words.length - 1;
  let start = -1;
  while (l >= 0 && w >= 0) {
    const word = (words[w] ?? '').toLowerCase();
    if (word[0] === letters[l]) {
      start = w;
      l -= 1;
      w -= 1;
    } else if (SMALL_WORDS.has(word)) {
      w -= 1;
    } else return undefined;
  }
  if (l >= 0 || start < 0) return undefined;
  const longForm = words.slice(start).join(' ').toLowerCase();
  return longForm.split(' ').length >= 2 ? longForm : undefined;
}

/**
 * Mines "Long Form Words (LFW)" definitions from a corpus, e.g. "Zero Moment Point (ZMP)" gives
 * zmp ↔ "zero moment point", so a question may use either form.
 *
 * @example
 * mineAcronyms(['Visual Simultaneous Localization and Mapping (VSLAM) builds maps.']);
 * // Map { 'vslam' => Set { 'visual simultaneous localization and mapping' } }
 */
export function mineAcronyms(texts: Iterable<string>): AcronymMap {
  const found: AcronymMap = new Map();
  for (const text of texts) {
    if (!text.includes('(')) continue;
    for (const match of text.matchAll(DEFINITION)) {
      const acronym = match[2] ?? '';
      const longForm = longFormFor(acronym, match[1] ?? '');
      if (!longForm) continue;
      const key = acronym.toLowerCase().replace(/s$/, '');
      let forms = found.get(key);
      if (!forms) found.set(key, (forms = new Set()));
      forms.add(longForm);
    }
  }
  return found;
}
