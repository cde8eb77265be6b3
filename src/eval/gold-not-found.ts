import type { ChunkRecord } from '../schema/index.js';
import { headingIsGold, parseGold } from './evaluate-retrieval.js';
import type { RetrievalCase } from './retrieval-cases.js';

/**
 * The gold labels of `cases` that name no section of the ingested corpus: a path or heading
 * misspelt, or a section too short to stand alone that the chunker folded into its neighbour. No
 * answer can cite such a label, so each question that has only these counts as a miss whatever
 * the assistant does; listed, a set's author can fix the label instead of chasing the ranker. A
 * label matches as a citation does (`citationIsGold`): same file, heading on the chunk's path.
 *
 * @example
 * goldNotFound([{ query: 'q', gold: ['a.md#Nodes', 'a.md#Typo'] }], chunks); // ['a.md#Typo']
 */
export function goldNotFound(
  cases: readonly RetrievalCase[],
  chunks: readonly Pick<ChunkRecord, 'source' | 'headingPath'>[],
): string[] {
  const headings = new Map<string, Set<string>>();
  for (const chunk of chunks) {
    const known = headings.get(chunk.source) ?? new Set<string>();
    for (const heading of chunk.headingPath) known.add(heading.trim().toLowerCase());
    headings.set(chunk.source, known);
  }
  const labels = new Set(cases.flatMap((item) => item.gold));
  return [...labels].filter((label) => {
    const { source, heading } = parseGold(label);
    const known = headings.get(source);
    return !known || ![...known].some((written) => headingIsGold(written, heading));
  });
}
