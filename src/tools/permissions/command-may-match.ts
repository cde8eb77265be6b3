import { commandMatches } from './match-rule.js';

/** One token of a command pattern: a character, or `null` for any text (spaces included). */
type Token = string | null;

/**
 * Where a word stops meaning its own letters: a parameter or command substitution (`$X`, `${X}`,
 * `$(…)`, a backtick), a glob (`*`, `?`, `[m]`) or a brace expansion (`{r,x}`, `{1..3}`). bash
 * turns the word into other text from there on; -1 when the word is taken as written.
 */
function expandsAt(word: string): number {
  const found = [
    word.search(/\$./),
    word.indexOf('`'),
    word.search(/[*?]/),
    word.search(/\[[^\]]*\]/),
    word.search(/\{[^}]*(?:,|\.\.)[^}]*\}/),
  ].filter((index) => index >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

/** A specifier as patterns: `prefix:*` is the prefix alone or followed by a space and any text. */
function specifierPatterns(specifier: string): Token[][] {
  const normal = (value: string) => value.trim().replace(/\s+/g, ' ');
  // As in commandMatches: a prefix is literal text; elsewhere `*` is any text.
  if (specifier.endsWith(':*')) {
    const prefix = [...normal(specifier.slice(0, -2))];
    return [prefix, [...prefix, ' ', null]];
  }
  const wanted = normal(specifier);
  const pattern = (value: string): Token[] =>
    [...value].map((char) => (char === '*' ? null : char));
  return wanted.endsWith(' *')
    ? [pattern(wanted), pattern(wanted.slice(0, -2))]
    : [pattern(wanted)];
}

/**
 * True when some text matches both patterns: each `null` may stand for any text, in either. Walks
 * `a` once, keeping the positions of `b` reachable so far (length × length steps, no backtracking:
 * the command is the model's, and may be long).
 */
function patternsMeet(a: readonly Token[], b: readonly Token[]): boolean {
  let row = new Uint8Array(b.length + 1);
  row[0] = 1;
  for (let i = 0; i <= a.length; i += 1) {
    const left = a[i];
    // Within a row, a `null` on either side takes the next token of b.
    for (let j = 0; j < b.length; j += 1)
      if (row[j] && (left === null || b[j] === null)) row[j + 1] = 1;
    if (i === a.length) return row[b.length] === 1;
    const next = new Uint8Array(b.length + 1);
    for (let j = 0; j <= b.length; j += 1) {
      if (!row[j]) continue;
      if (left === null || b[j] === null) next[j] = 1;
      if (j < b.length && left !== null && b[j] !== null && left === b[j]) next[j + 1] = 1;
    }
    if (!next.includes(1)) return false;
    row = next;
  }
  return false;
}

/**
 * True when `command` may run what a Bash `specifier` names once bash has expanded its words: for
 * deny and ask rules, which must not be dodged by spelling the program differently. A word with
 * an expansion or a glob is any text from that point (`git pu$Y` may be `git push`); a command name
 * with one is any program (`r${X}m`, `$X`, `/bin/r[m]`, `{r,x}m`, `$(echo rm)` all run rm). A
 * command without one matches as {@link commandMatches} says.
 *
 * @example
 * commandMayMatch('rm:*', 'r${X}m -rf x'); // true
 * commandMayMatch('rm:*', 'ls $HOME'); // false
 */
export function commandMayMatch(specifier: string, command: string): boolean {
  if (!/[$`*?[{]/.test(command)) return commandMatches(specifier, command);
  const words = command.trim().split(/\s+/);
  const cuts = words.map(expandsAt);
  if (cuts.every((cut) => cut < 0)) return commandMatches(specifier, command);
  const pattern: Token[] = [];
  words.forEach((word, index) => {
    if (index > 0) pattern.push(' ');
    const cut = cuts[index] ?? -1;
    if (index === 0 && cut >= 0) pattern.push(null);
    else if (cut < 0) pattern.push(...word);
    else pattern.push(...word.slice(0, cut), null);
  });
  return specifierPatterns(specifier).some((wanted) => patternsMeet(pattern, wanted));
}
