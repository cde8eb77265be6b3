/**
 * Most repetitions (`*`, `+`) one part of a glob pattern may hold. picomatch (under `glob`, `grep`'s
 * `include` and the path rules of the permissions) compiles a pattern to a regular expression that
 * backtracks: with k repetitions in a part, matching a name of n characters takes about n^k steps.
 * Five `*` against one 250-character name ran for hours on the event loop; two cost at most
 * ~65,000 steps. A `+` is one too (the extglob `+(a)` is `(a)+`: four took 2.2 s on a
 * 200-character name); a `**` inside a part (`a**b`, compiled as `a*b`) counts its two `*`.
 */
export const MAX_WILDCARDS_PER_PART = 2;

/**
 * Most groups (`(`, `{`) one part of a glob pattern may hold. Each compiles to a group of
 * alternatives (`{a,b}` is `(a|b)`, `?(a)` is `(a)?`), and backtracking tries every way through
 * them: 22 `{a,a}` in a row took 1.2 s on 23 characters, twice that for each more. Four cost at
 * most sixteen ways, and leave room for `*.{ts,tsx}` and Next.js's `(group)` folders.
 */
export const MAX_GROUPS_PER_PART = 4;

/**
 * Most `**` parts one glob pattern may hold: each matches any number of folders, and against a
 * path of many folders four of them (`**\/a/**\/a/**\/a/**\/b`) took 11 s at 400 folders, where
 * three took 15 ms at 2,000. A path rule is matched with `/**` added (a folder covers what is in
 * it), so two here are three there.
 */
export const MAX_GLOBSTARS = 2;

const REPETITION = /[*+]/g;
const GROUP = /[({]/g;
const count = (part: string, what: RegExp) => part.match(what)?.length ?? 0;

/**
 * Why matching the glob `pattern` could run for hours, or undefined when it is bounded: more than
 * {@link MAX_WILDCARDS_PER_PART} repetitions or {@link MAX_GROUPS_PER_PART} groups in one path part,
 * or more than {@link MAX_GLOBSTARS} `**` parts.
 *
 * @example
 * globCostProblem('src/**\/*.{ts,tsx}'); // undefined
 * globCostProblem('*a*a*a*b'); // 'more than 2 wildcards ("*", "+") in "*a*a*a*b" …'
 */
export function globCostProblem(pattern: string): string | undefined {
  const parts = pattern.split(/[\\/]+/).filter((part) => part !== '**');
  const crowded = parts.find((part) => count(part, REPETITION) > MAX_WILDCARDS_PER_PART);
  if (crowded !== undefined)
    return `more than ${MAX_WILDCARDS_PER_PART} wildcards ("*", "+") in "${crowded}": matching it could take hours on long file names. Use at most ${MAX_WILDCARDS_PER_PART} per path part (e.g. "**/*test*")`;
  const grouped = parts.find((part) => count(part, GROUP) > MAX_GROUPS_PER_PART);
  if (grouped !== undefined)
    return `more than ${MAX_GROUPS_PER_PART} groups ("(", "{") in "${grouped}": matching it could take hours. Use at most ${MAX_GROUPS_PER_PART} per path part (e.g. "*.{ts,tsx}")`;
  const globstars = pattern.split(/[\\/]+/).filter((part) => part === '**').length;
  if (globstars > MAX_GLOBSTARS)
    return `${globstars} "**" parts, over ${MAX_GLOBSTARS}: matching it could take hours on deep folders. Use at most ${MAX_GLOBSTARS} (e.g. "src/**/test/**/*.ts")`;
  return undefined;
}
