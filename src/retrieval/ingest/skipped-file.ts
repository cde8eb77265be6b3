// Where cohort says what a FIFO, socket or device is (the file tools use it too).
export { specialFileType } from '../../config/index.js';

/** Why an ingestion left a file out, as a category the summary counts. */
export type SkipKind =
  /** A symbolic link: never followed (it could lead out of the folder, to a secret or a loop). */
  | 'symbolic_link'
  /** A FIFO, socket or device: never read (a FIFO would stall the ingestion until written to). */
  | 'not_regular_file'
  /** The file could not be opened or read. */
  | 'unreadable'
  /** Over the size limit per file. */
  | 'too_large'
  /** Binary, NUL bytes, or not UTF-8/UTF-16 text. */
  | 'not_text'
  /** Text cohort cannot read as a document (invalid frontmatter). */
  | 'invalid_document';

/** A file an ingestion left out, why in words (`reason`) and as a category (`kind`). */
export interface SkippedFile {
  source: string;
  reason: string;
  kind: SkipKind;
}

/** How the summary counts each kind: one, many. */
const KIND_NAMES: Record<SkipKind, readonly [string, string]> = {
  symbolic_link: ['symbolic link', 'symbolic links'],
  not_regular_file: ['not a regular file', 'not regular files'],
  unreadable: ['unreadable', 'unreadable'],
  too_large: ['too large', 'too large'],
  not_text: ['not text', 'not text'],
  invalid_document: ['not a valid document', 'not valid documents'],
};

/**
 * The skipped files counted by kind, in the order kinds first appear:
 * `2 skipped (1 symbolic link, 1 not a regular file)`; empty when nothing was skipped.
 *
 * @example
 * describeSkipped(summary.skipped); // '2 skipped (1 symbolic link, 1 not a regular file)'
 */
export function describeSkipped(skipped: readonly Pick<SkippedFile, 'kind'>[]): string {
  if (skipped.length === 0) return '';
  const counts = new Map<SkipKind, number>();
  for (const { kind } of skipped) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, n]) => `${n} ${KIND_NAMES[kind][n === 1 ? 0 : 1]}`);
  return `${skipped.length} skipped (${parts.join(', ')})`;
}

/** Why a FIFO, socket or device is named in `skipped`. */
export const notRegularFileReason = (type: string) =>
  `not a regular file but ${type}: only regular files are ingested`;
