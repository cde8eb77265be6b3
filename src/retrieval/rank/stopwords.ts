/** English function words: they carry no topic, so they are neither indexed nor searched. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being
  below between both but by can cannot could did do does doing don't down during each few for from
  further had has have having he her here hers herself him himself his how i if in into is isn't it
  it's its itself let's me more most my myself no nor not of off on once only or other ought our ours
  ourselves out over own same she should so some such than that that's the their theirs them
  themselves then there these they this those through to too under until up very was we were what
  what's when where which while who whom why will with would you your yours yourself yourselves
  also etc e.g i.e via per may might must shall within without whether upon among`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words of how students ask rather than what they ask about ("can you explain what … means"):
 * dropped from queries only, so documents that use them in earnest still match them.
 */
export const QUERY_STOPWORDS: ReadonlySet<string> = new Set(
  `explain explained explaining tell describe describes mean means meaning know need want please
  suggest suggests suggested suggestion suggestions
  thing things something anything stuff kind kinds sort work works exactly basically actually really
  like get gets give gives go goes say says said good way ways book chapter section talk talks
  mention mentioned mentions covered cover covers course lot lots`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * How a reader wants the answer put, closing a question or opening it ("sensorimotor learning in
 * plain words?", "slam in one sentence?", "In simple terms, what is a costmap?", "…, briefly"): the
 * manner of the answer, not its subject. Only at a clause's edge, so "slides in a line" and "tell
 * me in plain words what went wrong" keep their words.
 */
const ASKING_MANNER =
  /(?:in\s+(?:plain|simple|layman'?s|everyday|easy|basic)\s+(?:words|terms|english)|in\s+(?:one|a)\s+(?:sentence|line|nutshell|few\s+words)|(?:explained\s+|put\s+)?simply|briefly|in\s+short)/;
// Openers that ask for a short or simple answer ("TL;DR: what's a spherical wrist?", "ELI5: …",
// "Quick one: ATE = ?"): only at the start, before a colon or a dash.
const BRIEF_OPENER = /tl\s*;?\s*dr|eli5|quick\s+(?:one|question|q)|real\s+quick/;
// "TL;DR" and "ELI5" say so whatever follows them ("TL;DR what's a costmap", "TL;DR. What is…").
const BRIEF_TOKEN = /tl\s*;?\s*dr|eli5/;
// The phrase closing the question. It goes with the separators before it (`[\s,;:-]*`), found
// by stepping back from the phrase: written into the expression, that leading run made it try a
// match at every character of every question (4x the time, on every route and every search).
const MANNER_AT_END = new RegExp(`\\b${ASKING_MANNER.source}(?=\\s*[?.!]*\\s*$)`, 'i');
const SEPARATOR = /[\s,;:-]/;
const MANNER_AT_START = new RegExp(
  `^\\s*(?:(?:${ASKING_MANNER.source}|${BRIEF_OPENER.source})\\s*[,:;\\-\u2013\u2014]|(?:${BRIEF_TOKEN.source})\\b\\.?)\\s*`,
  'i',
);

// The last word of every manner phrase, and what may follow the phrase (see MANNER_AT_END).
const MANNER_ENDINGS = [
  'words',
  'terms',
  'english',
  'sentence',
  'line',
  'nutshell',
  'simply',
  'briefly',
  'short',
];
const AFTER_MANNER = /[\s?.!]/;

/**
 * True when `text` may close with a manner phrase: it ends, but for spaces and ?.!, in a word
 * that ends one. Most questions do not, and are not searched for a phrase at every word.
 */
function mayEndInManner(text: string): boolean {
  let end = text.length;
  while (end > 0 && AFTER_MANNER.test(text[end - 1]!)) end -= 1;
  const tail = text.slice(Math.max(0, end - 8), end).toLowerCase();
  return MANNER_ENDINGS.some((ending) => tail.endsWith(ending));
}

/**
 * `text` without its closing manner phrase and the separators before it: what replacing
 * `[\s,;:-]*\b<manner>(?=…$)` gives. The leftmost such match starts the run of separators right
 * before the leftmost phrase (a phrase starts with a letter, so no earlier run reaches a later one).
 */
function withoutMannerAtEnd(text: string): string {
  if (!mayEndInManner(text)) return text;
  const match = MANNER_AT_END.exec(text);
  if (!match) return text;
  let start = match.index;
  while (start > 0 && SEPARATOR.test(text[start - 1]!)) start -= 1;
  return text.slice(0, start) + text.slice(match.index + match[0].length);
}

/**
 * How many characters of `query` open it with how the answer should be put ("TL;DR: ",
 * "In simple terms, "), separators included; 0 when none does.
 *
 * @example
 * askingMannerOpener('TL;DR: what is a costmap?'); // 7
 */
export function askingMannerOpener(query: string): number {
  return MANNER_AT_START.exec(query)?.[0].length ?? 0;
}

/**
 * `query` without the phrase that says how the answer should be put ({@link ASKING_MANNER}), so
 * its words ("plain", "words", "sentence") do not outweigh the subject in the ranking.
 *
 * @example
 * withoutAskingManner('sensorimotor learning in plain words?'); // 'sensorimotor learning?'
 */
export function withoutAskingManner(query: string): string {
  const stripped = withoutMannerAtEnd(query.replace(MANNER_AT_START, ''));
  // Nothing stripped (most questions): the query itself, without looking for a letter in it.
  if (stripped === query) return query;
  return /[\p{L}\p{N}]/u.test(stripped) ? stripped : query;
}
