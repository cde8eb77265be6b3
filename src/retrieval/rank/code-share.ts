import type { ChunkRecord } from '../../schema/index.js';

/**
 * How much of a section's score a section made of code loses, at most (all of it code): a
 * question asking what something is is answered by prose, and a tutorial's commands repeat the
 * words of any question about their tool ("ros2 component load … composition::Talker").
 */
export const CODE_SHARE_WEIGHT = 0.5;

const FENCE = /^\s*(?:```|~~~)/;
/** Box-drawing characters: a fenced block drawn with them is a diagram or a tree, not code. */
const DRAWN = /[\u2500-\u257f]/;

/** Letters and digits of a line: what its words weigh, counted without analysing them. */
const weightOf = (line: string) => line.replace(/[^\p{L}\p{N}]+/gu, '').length;

/**
 * The share of a text's letters and digits that are in fenced code blocks (0..1). A block drawn
 * with box-drawing characters (a folder tree, an architecture diagram) names its parts in words:
 * it is not code. Counted by characters, not analysed words: a ranker loaded from a saved index
 * reads every chunk's text once more for it, at start.
 *
 * @example
 * codeShare('Run it:\n\n```\nros2 run demo talker\n```'); // 0.75
 */
export function codeShare(text: string): number {
  let prose = 0;
  let code = 0;
  let block: string[] | undefined;
  for (const line of text.split('\n')) {
    if (!FENCE.test(line)) {
      if (block) block.push(line);
      else prose += weightOf(line);
    } else if (!block) block = [];
    else {
      const weight = block.reduce((sum, l) => sum + weightOf(l), 0);
      if (block.some((l) => DRAWN.test(l))) prose += weight;
      else code += weight;
      block = undefined;
    }
  }
  if (block) code += block.reduce((sum, l) => sum + weightOf(l), 0);
  return prose + code === 0 ? 0 : code / (prose + code);
}

/**
 * Each chunk with code and its share of code (see {@link codeShare}), in chunk order: read once
 * from the text and saved with the index.
 */
export function codeShares(chunks: readonly ChunkRecord[]): [number, number][] {
  const shares: [number, number][] = [];
  chunks.forEach((chunk, doc) => {
    const share = codeShare(chunk.text);
    if (share > 0) shares.push([doc, share]);
  });
  return shares;
}

/**
 * Per-chunk score factors, 1 − {@link CODE_SHARE_WEIGHT} × its code share, from
 * {@link codeShares}; undefined when no chunk has code.
 */
export function codeSharePrior(
  shares: readonly (readonly [number, number])[],
  chunkCount: number,
): Float64Array | undefined {
  if (shares.length === 0) return undefined;
  const prior = new Float64Array(chunkCount).fill(1);
  for (const [doc, share] of shares) prior[doc] = 1 - CODE_SHARE_WEIGHT * share;
  return prior;
}

/**
 * A how-to ask: "How do I …", "How can we …" opening the question or one of its sentences or
 * clauses, or "how to" anywhere. A question often states its situation first and asks last ("I
 * installed ROS 2 with apt and now want a source build. How do I remove the packages?", "…, and
 * how can I check it?").
 */
const HOW_TO =
  /(?:^\s*|[.?!;:,]\s+|\b(?:and|but|so)\s+)how\s+(?:do|can|could|should|would|will|shall)\s+(?:i|you|we|one)\b|\bhow\s+to\b/i;

/**
 * True when the question asks how to do something ("How do I record a topic?", "How can we
 * remap a node's name?", "How to source the setup file?", "My listener fails. How can I see the
 * delay?"): its answer is a command or code, and a sentence that introduces one answers it better
 * than one that talks about it.
 *
 * @example
 * asksHowTo('How do I record a topic to a bag file?'); // true
 * asksHowTo('I switched to a source build. How do I remove the packages?'); // true
 * asksHowTo('How does a topic work?'); // false
 */
export function asksHowTo(query: string): boolean {
  return HOW_TO.test(query);
}

/**
 * True when code may answer the question: it asks how to do something ({@link asksHowTo}), asks
 * for a command or code, or writes code itself (`colcon_cd`, `rclcpp::Node`, `--ros-args`).
 */
export function asksForCode(query: string): boolean {
  return (
    asksHowTo(query) ||
    /\b(?:commands?|syntax|code|snippet|script|example|cli)\b/i.test(query) ||
    /\w_\w|::|(?:^|\s)--?\w/.test(query)
  );
}
