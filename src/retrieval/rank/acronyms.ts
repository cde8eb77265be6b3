/** Words an acronym may skip or take one letter from ("Localization and Mapping" → "LAM" or "LM"). */
export const SMALL_WORDS: ReadonlySet<string> = new Set([
  'and',
  'of',
  'the',
  'for',
  'in',
  'on',
  'to',
  'a',
  'an',
  'with',
  '&',
]);
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
 * zmp ↔ "zero moment point", so a question may use either form. An acronym is keyed lower case,
 * without a plural's small "s" ("LLMs" → `llm`); a capital S is its own letter ("QoS" → `qos`).
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
      // "LLMs" is the plural of LLM; "DDS" and "QoS" end in their own S (keyed `dds`, `qos`).
      const key = acronym.replace(/s$/, '').toLowerCase();
      let forms = found.get(key);
      if (!forms) found.set(key, (forms = new Set()));
      forms.add(longForm);
    }
  }
  return found;
}

/** Articles an initialism always skips ("Hardware-in-the-Loop" is HIL). */
const ARTICLES = new Set(['a', 'an', 'the']);

/** A term's initialisms are read only from terms of this many words or fewer. */
const MAX_TERM_WORDS = 6;

/**
 * The initialisms a multi-word term is commonly shortened to, lower-case: the initials of its
 * words and hyphenated parts without articles ("Degrees of Freedom" → "dof", "Hardware-in-the-Loop"
 * → "hil", "Human-Robot Interaction" → "hri"), and without any small word ("Total Cost of
 * Ownership" → "tco"). Two-letter initialisms only come from two-word terms ("Forward Kinematics" →
 * "fk"): read from longer terms ("df" for degrees of freedom) they are nobody's abbreviation.
 *
 * @example
 * initialismsOf('Central Pattern Generators'); // ['cpg']
 */
export function initialismsOf(term: string): string[] {
  const words = term
    .toLowerCase()
    // Typeset dashes join parts as a hyphen does ("Human–Robot Interaction" is HRI, not "hi").
    .split(/[\s\-/\u2010-\u2015]+/)
    .map((word) => word.replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  if (words.length < 2 || words.length > MAX_TERM_WORDS) return [];
  // A name with a digit ("ROS 2 Humble") is not shortened to its initials.
  if (words.some((word) => !/^[a-z]/.test(word) || /\d/.test(word))) return [];
  const found = new Set<string>();
  const initials = (kept: string[]) => kept.map((word) => word[0]).join('');
  const withoutArticles = words.filter((word) => !ARTICLES.has(word));
  const contentOnly = words.filter((word) => !SMALL_WORDS.has(word));
  for (const kept of [withoutArticles, contentOnly]) {
    if (kept.length < 2) continue;
    const short = initials(kept);
    if (short.length === 2 && words.length > 2) continue;
    found.add(short);
  }
  return [...found];
}

/** Bold spans of markdown text ("**Central Pattern Generators**"): a term the text names. */
const BOLD = /\*\*([^*\n]{3,80}?)\*\*/g;
/** A word with two capitals ("DDPG", "SDK", "JetPack", "IoT"): an acronym or a product's name. */
const SHORT_OR_NAME = /(?:^|[^A-Za-z0-9])[A-Z][A-Za-z0-9]*[A-Z]/;

/**
 * The term a heading or bold span names: "Appendix: Architecture Diagrams" names "Architecture
 * Diagrams", "Publish/Subscribe (Topics)" names "Publish/Subscribe"; a question ("What is URDF?")
 * names none.
 */
function namedTerm(written: string): string | undefined {
  if (written.includes('?')) return undefined;
  const named =
    written
      .replace(/\([^)]*\)/g, ' ')
      .split(':')
      .at(-1) ?? '';
  // "Twin Delayed DDPG", "JetPack SDK", "NVIDIA Isaac Sim": a term that holds a short form of its
  // own, or a name with a capital inside, is not shortened to its initials by anyone ("TDD" and
  // "JS" are what readers mean by them); a heading in capitals throughout is only a style.
  if (named !== named.toUpperCase() && SHORT_OR_NAME.test(named)) return undefined;
  const term = named.trim().replace(/\s+/g, ' ').toLowerCase();
  return term || undefined;
}

/** Initialism → the long form a book names most often with it: {@link mineInitialisms}. */
export type InitialismMap = Map<string, string>;

/** A heading's term is a term of the book when its text also uses it this often (in chunks). */
const MIN_TEXT_USES = 2;

/**
 * The terms a book names, by their initialisms (see {@link initialismsOf}): "dof" for the book's
 * "Degrees of Freedom", which never writes "DOF". A term is one the book writes in bold ("**Central
 * Pattern Generators**"), or a heading's that its text also uses in {@link MIN_TEXT_USES} chunks:
 * a heading alone ("New Pricing Models") names a section, not something a reader abbreviates. An
 * initialism two terms share as often as each other is left out: the book prefers no reading.
 * Whether a question's word is read through it is the caller's choice (only words the book and
 * English never use should be: a word the book uses means what the book means by it).
 *
 * @example
 * mineInitialisms([{ text: '- **Central Pattern Generators**: rhythm', headingPath: [] }]);
 * // Map { 'cpg' => 'central pattern generators' }
 */
export function mineInitialisms(
  sources: Iterable<{ text: string; headingPath: readonly string[] }>,
): InitialismMap {
  const chunks = [...sources];
  // A term recurs (a bold term in every section of a list, a heading on every chunk under it):
  // its initialisms are worked out once.
  const initialisms = new Map<string, string[]>();
  const initialismsOfTerm = (term: string): string[] => {
    let found = initialisms.get(term);
    if (found === undefined) initialisms.set(term, (found = initialismsOf(term)));
    return found;
  };
  // Each term's uses: bold spans, then (for headings' terms) chunks whose text writes it.
  const uses = new Map<string, number>();
  const headed = new Set<string>();
  // A heading is on the path of every chunk under it: each is read once.
  const headings = new Set<string>();
  for (const { text, headingPath } of chunks) {
    for (const heading of headingPath) {
      if (headings.has(heading)) continue;
      headings.add(heading);
      const term = namedTerm(heading);
      if (term !== undefined && initialismsOfTerm(term).length > 0) headed.add(term);
    }
    if (!text.includes('**')) continue;
    for (const match of text.matchAll(BOLD)) {
      const term = namedTerm(match[1] ?? '');
      if (term !== undefined && initialismsOfTerm(term).length > 0)
        uses.set(term, (uses.get(term) ?? 0) + MIN_TEXT_USES);
    }
  }
  const unproven = [...headed].filter((term) => (uses.get(term) ?? 0) < MIN_TEXT_USES);
  for (const [term, count] of countTextUses(chunks, unproven)) uses.set(term, count);
  const best = new Map<string, { form: string; count: number; tied: boolean }>();
  for (const [form, count] of uses) {
    if (count < MIN_TEXT_USES) continue;
    for (const initialism of initialismsOfTerm(form)) {
      const held = best.get(initialism);
      if (!held || count > held.count) best.set(initialism, { form, count, tied: false });
      else if (count === held.count && form !== held.form) held.tied = true;
    }
  }
  const found: InitialismMap = new Map();
  for (const [initialism, { form, tied }] of best) if (!tied) found.set(initialism, form);
  return found;
}

/** A term's or a text's words as {@link countTextUses} compares them: letters and digits. */
const textWordsOf = (text: string): string[] => text.split(/[^a-z0-9]+/).filter(Boolean);

/**
 * Terms by their words, one word a level: the terms that end at a node ("human-robot interaction"
 * and "human robot interaction" end at one), and the words that may follow.
 */
interface TermNode {
  terms: string[];
  next: Map<string, TermNode>;
}

/**
 * How many chunks' text writes each of `terms` (lower case, words as {@link namedTerm} gives
 * them): one pass over each chunk's words, following from each word the terms that go on with the
 * words after it (at most {@link MAX_TERM_WORDS} steps, each a map lookup). Trying every term that
 * starts with a word at each use of it took time in the number of such terms: 5,000 headings
 * "The …" cost minutes over a corpus, on the first question.
 */
function countTextUses(
  chunks: readonly { text: string }[],
  terms: readonly string[],
): Map<string, number> {
  const root: TermNode = { terms: [], next: new Map() };
  for (const term of terms) {
    const words = textWordsOf(term);
    if (words.length === 0) continue;
    let node = root;
    for (const word of words) {
      let child = node.next.get(word);
      if (!child) node.next.set(word, (child = { terms: [], next: new Map() }));
      node = child;
    }
    node.terms.push(term);
  }
  const counts = new Map<string, number>();
  if (root.next.size === 0) return counts;
  const seen = new Set<string>();
  for (const { text } of chunks) {
    const words = textWordsOf(text.toLowerCase());
    seen.clear();
    for (let at = 0; at < words.length; at++) {
      let node = root.next.get(words[at] as string);
      for (let end = at + 1; node !== undefined; end++) {
        for (const term of node.terms) seen.add(term);
        node = end < words.length ? node.next.get(words[end] as string) : undefined;
      }
    }
    for (const term of seen) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}
