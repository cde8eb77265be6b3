import type { ChunkRecord } from '../../schema/index.js';
import { analyze } from './tokenizer.js';

/**
 * Share of the query's best attainable score a section gets when its own heading is the whole
 * question: over the ROS 2 docs "What are the QoS policies?" ranked the page's overview, its
 * compatibility tables and a rosbag how-to (each naming "QoS policies" more often in its text)
 * above the two chunks of the section headed "QoS policies", sixth and seventh, so no list of the
 * policies was quoted.
 */
export const HEADING_NAMED_SHARE = 0.2;

/** The set of stems of a text as one key: the same words in any order give the same key. */
function stemKey(stems: Iterable<string>): string {
  return [...new Set(stems)].sort().join(' ');
}

/**
 * The chunks by the stems of their own heading (the last of the heading path), each heading of
 * two words or more: a one-word heading ("Overview", "Usage", "Nodes") is named by many questions
 * in passing.
 */
export function headingKeys(chunks: readonly ChunkRecord[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  chunks.forEach((chunk, doc) => {
    const stems = new Set(analyze(chunk.headingPath.at(-1) ?? ''));
    if (stems.size < 2) return;
    const key = stemKey(stems);
    const docs = byKey.get(key);
    if (docs) docs.push(doc);
    else byKey.set(key, [doc]);
  });
  return byKey;
}

/**
 * The chunks whose own heading is the question's words, all of them and no other: "QoS policies"
 * for "What are the QoS policies?"; not for "What are the QoS reliability options?" (a word of the
 * question the heading lacks), nor "QoS policies > Comparison to ROS 1" (its own heading is
 * another). `queryStems` are the question's own terms, its stop words gone; a two-word term
 * ("qos polici", a bigram) is no stem.
 *
 * @example
 * chunksHeadingNamed(headingKeys(chunks), ['qos', 'polici']); // the chunks under "QoS policies"
 */
export function chunksHeadingNamed(
  keys: ReadonlyMap<string, readonly number[]>,
  queryStems: Iterable<string>,
): readonly number[] {
  const stems = [...queryStems].filter((stem) => !stem.includes(' '));
  if (stems.length < 2) return [];
  return keys.get(stemKey(stems)) ?? [];
}
