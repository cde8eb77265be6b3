import type { ChunkRecord } from '../../schema/index.js';
import { analyze } from './tokenizer.js';

/**
 * Pages about releases rather than about the subject: release notes, changelogs, "What's new".
 * They name every feature a release touched, in the words of the pages that explain it, so over a
 * documentation set a question about a feature matches them as well as the page that explains it:
 * over the ROS 2 docs "What is the default QoS history depth for publishers and subscriptions?"
 * ranked three release-note sections first (one about the /clock topic's depth only) and the QoS
 * concept page fifth. A release page is recognised by its file or folder name or its title.
 */
const RELEASE_FOLDER =
  /^(?:releases?|release[-_ ]?notes|changelogs?|change[-_ ]?logs?|whats[-_ ]?new|news)$/i;
const RELEASE_FILE =
  /^(?:releases?|news|changes)$|^release[-_ ]?v?\d|(?:^|[-_ .])(?:changelog|change[-_]log|release[-_]?notes?|whats[-_]?new)(?:$|[-_ .])/i;
const RELEASE_TITLE = /\b(?:change\s?log|release\s+notes?|what'?s\s+new)\b|^release\s+v?\d/i;

/**
 * Words with which a question asks about a release or a change, for which the release pages are
 * the answer ("What changed in the latest release?", "Which version deprecated it?").
 */
const ASKS_ABOUT_RELEASES =
  /\b(?:releases?|released|versions?|changed|changes|change\s?logs?|deprecat\w*|upgrad\w*|migrat\w*|distros?|latest|what'?s\s+new|new\s+(?:in|features?))\b|\bv?\d+\.\d+\b/i;

/** Words of a release page's title that name no particular release. */
const GENERIC_TITLE_WORDS = new Set(analyze('release releases notes changelog complete new'));

/**
 * How much of its score a release page keeps for a question that does not ask about releases:
 * the explaining page comes first when it matches about as well, and a release page still answers
 * when nothing else names the subject (combined store of the review's probes: the release pages
 * that led five of them no longer lead; 0.8 left two of them leading).
 */
export const RELEASE_NOTES_FACTOR = 0.7;

/** True when a chunk's file, a folder above it or its document title marks a release page. */
export function isReleaseNotes(chunk: Pick<ChunkRecord, 'source' | 'title'>): boolean {
  const parts = chunk.source.split(/[\\/]/);
  const file = (parts.pop() ?? '').replace(/\.[^.]+$/, '');
  return (
    parts.some((folder) => RELEASE_FOLDER.test(folder)) ||
    RELEASE_FILE.test(file) ||
    RELEASE_TITLE.test(chunk.title.trim())
  );
}

/** True when `query` asks about a release, a version or a change: release pages answer it. */
export function asksAboutReleases(query: string): boolean {
  return ASKS_ABOUT_RELEASES.test(query);
}

/** The release pages of a corpus: their score factors, and which chunks each title word names. */
export interface ReleaseNotes {
  /** {@link RELEASE_NOTES_FACTOR} for a release page's chunks, 1 for the others. */
  factors: Float64Array;
  /** Stem of a word of a release page's title (not a generic one) → that page's chunks. */
  byTitleWord: Map<string, number[]>;
}

/** The release pages of `chunks` ({@link isReleaseNotes}); undefined when the corpus has none. */
export function releaseNotes(chunks: readonly ChunkRecord[]): ReleaseNotes | undefined {
  let found: ReleaseNotes | undefined;
  chunks.forEach((chunk, doc) => {
    if (!isReleaseNotes(chunk)) return;
    found ??= { factors: new Float64Array(chunks.length).fill(1), byTitleWord: new Map() };
    found.factors[doc] = RELEASE_NOTES_FACTOR;
    for (const word of new Set(analyze(chunk.title))) {
      if (GENERIC_TITLE_WORDS.has(word)) continue;
      const docs = found.byTitleWord.get(word);
      if (docs) docs.push(doc);
      else found.byTitleWord.set(word, [doc]);
    }
  });
  return found;
}

/**
 * The release pages a question names by their title's own words ("What is in Iron Irwini?" names
 * the page "Iron Irwini (iron)"): they answer it, whatever else it asks.
 */
export function releasePagesNamed(
  notes: ReleaseNotes,
  queryStems: Iterable<string>,
): readonly number[] {
  const named = new Set<number>();
  for (const stem of queryStems)
    for (const doc of notes.byTitleWord.get(stem) ?? []) named.add(doc);
  return [...named];
}

/**
 * True when `query` names the release page `chunk` belongs to by a word of its title that names
 * a release ("Which platforms does Humble Hawksbill support?" names "Humble Hawksbill (humble)"):
 * the page is then what the question asks about, lists included.
 *
 * @example
 * namesReleasePage({ title: 'Humble Hawksbill (humble)' }, 'Which platforms does Humble support?'); // true
 */
export function namesReleasePage(chunk: Pick<ChunkRecord, 'title'>, query: string): boolean {
  const asked = new Set(analyze(query));
  return analyze(chunk.title).some((word) => !GENERIC_TITLE_WORDS.has(word) && asked.has(word));
}
