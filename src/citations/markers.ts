/**
 * The `[n]` citation marker every answer, finding and report uses (1 to 3 digits). This is the
 * only place the pattern is written; the streaming guard (citation-guard.ts) extends it to lists.
 */
export const CITATION_MARKER = /\[(\d{1,3})\]/g;

/**
 * The `[n]` markers used in a text, in order of first use.
 *
 * @example
 * citationMarkers('A [2] and B [1][2].'); // [2, 1]
 */
export function citationMarkers(text: string): number[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(CITATION_MARKER)) seen.add(Number(match[1]));
  return [...seen];
}

/**
 * Rewrites `[n]` markers through `map`; markers with no mapping are dropped.
 *
 * @example
 * renumberMarkers('A [2], B [7].', new Map([[2, 1]])); // 'A [1], B .'
 */
export function renumberMarkers(text: string, map: ReadonlyMap<number, number>): string {
  return text.replace(CITATION_MARKER, (_, n: string) => {
    const to = map.get(Number(n));
    return to === undefined ? '' : `[${to}]`;
  });
}
