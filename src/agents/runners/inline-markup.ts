/**
 * Markdown inline markup read as its text, for quoting a line of the book: code spans, links and
 * images, strong and emphasis, and backslash escapes.
 *
 * Each span may hold its own marker characters, as the book writes them: "**A* Algorithm**",
 * "__max_speed__", "`` a`b ``", "[array[0]](url)". A marker that cannot open or close a span (a
 * star after a letter or before a space, as in "A* and D*", "2 * 3"; an underscore inside a word,
 * as in "snake_case") is text. Span contents are bounded ({@link MAX_SPAN}) so a line of stray
 * markers costs time in proportion to its length.
 */

/** Longest text read inside one span; a longer one is left as written. */
const MAX_SPAN = 300;

/** A placeholder for an escaped character or a code span, in the Unicode private use area. */
const HELD = /\uE000(\d+)\uE001/g;

// A run of backticks closes only at a run of the same length: "`` a`b ``" holds one backtick.
const CODE = new RegExp(String.raw`(?<!\`)(\`+)([^\n]{1,${MAX_SPAN}}?)(?<!\`)\1(?!\`)`, 'g');
const IMAGE_OR_LINK = new RegExp(
  String.raw`!?\[((?:[^\[\]\n]|\[[^\[\]\n]*\]){1,${MAX_SPAN}})\]` +
    String.raw`\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`,
  'g',
);
// Opens before a non-space, closes after one; "**" may hold single stars ("A* Algorithm").
const STRONG_STAR = new RegExp(
  String.raw`\*\*(?=[^\s*]|\*[^\s*])(.{1,${MAX_SPAN}}?)(?<=\S)\*\*`,
  'g',
);
// Underscores open and close only at a word's edge: "snake_case" and "__init__" inside a word stay.
const STRONG_UNDERSCORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])__(?=\S)(.{1,${MAX_SPAN}}?)(?<=\S)__(?![\p{L}\p{N}_])`,
  'gu',
);
// A single star opens only where it does not follow a letter or digit ("A*", "2*3" stay).
const EMPHASIS_STAR = new RegExp(
  String.raw`(?<![\p{L}\p{N}*])\*(?=[^\s*])(.{1,${MAX_SPAN}}?)(?<=[^\s*])\*(?![\p{L}\p{N}*])`,
  'gu',
);
const EMPHASIS_UNDERSCORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])_(?=[^\s_])(.{1,${MAX_SPAN}}?)(?<=[^\s_])_(?![\p{L}\p{N}_])`,
  'gu',
);

/**
 * `line` with its Markdown inline markup replaced by the text it shows.
 *
 * @example
 * plainInline('**A* Algorithm**: `A*` search, see [Nav2](https://nav2.org)');
 * // 'A* Algorithm: A* search, see Nav2'
 */
export function plainInline(line: string): string {
  // Escaped characters and code are text: held aside so no later pattern reads them as markup.
  const held: string[] = [];
  const hold = (text: string) => `\uE000${held.push(text) - 1}\uE001`;
  let text = line
    .replace(/\\([!-/:-@[-`{-~])/g, (_, char: string) => hold(char))
    .replace(CODE, (_, _ticks: string, code: string) =>
      // "`` `a` ``": one space each side pads code that starts or ends with a backtick.
      hold(/^ .*\S.* $/.test(code) ? code.slice(1, -1) : code),
    )
    .replace(IMAGE_OR_LINK, '$1');
  // Strong before emphasis: "***both***" is strong around emphasis.
  for (const pattern of [STRONG_STAR, STRONG_UNDERSCORE, EMPHASIS_STAR, EMPHASIS_UNDERSCORE])
    text = text.replace(pattern, '$1');
  return text.replace(HELD, (_, index: string) => held[Number(index)] ?? '');
}
