import { countOf } from '../telemetry/index.js';

/**
 * The warning under a report whose set has gold labels the corpus lacks (see `goldNotFound`),
 * each on its own line; nothing when every label names a section.
 */
export function unknownGoldLines(labels: readonly string[]): string[] {
  if (labels.length === 0) return [];
  return [
    '',
    `Warning: ${countOf(labels.length, 'gold label')} ${labels.length === 1 ? 'names' : 'name'} ` +
      'no section of the corpus, so no answer can cite them (check the path and the heading as written; a one-line section may be ' +
      'folded into its neighbour):',
    ...labels.map((label) => `  ${label}`),
  ];
}
