/** Words an acronym may skip or take one letter from ("Localization and Mapping" → "LAM" or "LM"). */
const SMALL_WORDS = new Set(['and', 'of', 'the', 'for', 'in', 'on', 'to', 'a', 'an', 'with', '&']);
const DEFINITION = /((?:[A-Za-z][\w'-]*\s+){1,8}?)\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?)\)/;
/** The end of a {@link DEFINITION}: the acronym in brackets, found first, since it is rare. */
const BRACKETED = /\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?)\)/g;
/** A character a definition's words may hold: a word character, `'`, `-` or white space. */
const WORDY = /[\w'\-\s]/;

/** True when the character at `at` of `text` may be part of a definition's words. */
function isWordy(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128)
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 95 ||
      code === 39 ||
      code === 45 ||
      (code >= 9 && code <= 13) ||
      code === 32
    );
  return WORDY.test(text[at] as string);
}

/**
 * The words and acronym of each match of `/${DEFINITION.source}/g` in `text`, in order, found
 * from each bracketed acronym back
 * instead of trying the words pattern at every position of the text (1.8 s over ten copies of
 * the ROS 2 docs): a definition's words hold only characters {@link isWordy} accepts, none of
 * which is a bracket, so each match lies within the run of such characters before its acronym,
 * and the pattern run over that run and the acronym finds it where the whole text's scan would.
 */
export function findAcronymDefinitions(text: string): [words: string, acronym: string][] {
  const found: [string, string][] = [];
  for (const bracketed of text.matchAll(BRACKETED)) {
    const at = bracketed.index;
    let start = at;
    while (start > 0 && isWordy(text, start - 1)) start -= 1;
    if (start === at) continue;
    const match = DEFINITION.exec(text.slice(start, at + bracketed[0].length));
    if (match) found.push([match[1] ?? '', match[2] ?? '']);
  }
  return found;
}

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
    for (const [words, acronym] of findAcronymDefinitions(text)) {
      const longForm = longFormFor(acronym, words);
      if (!longForm) continue;
      const key = acronym.toLowerCase().replace(/s$/, '');
      let forms = found.get(key);
      if (!forms) found.set(key, (forms = new Set()));
      forms.add(longForm);
    }
  }
  return found;
}
