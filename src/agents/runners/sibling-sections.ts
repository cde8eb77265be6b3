import { headingPathOf } from '../../retrieval/index.js';
import type { RetrievedChunk } from '../../schema/index.js';

/** Sections under one heading, as a list a question asks for, in the book's order. */
export interface SiblingSections {
  /** Indices into the passages, in the order the document gives the sections. */
  chunks: number[];
}

const order = (chunk: RetrievedChunk): number =>
  typeof chunk.metadata.ord === 'number' ? chunk.metadata.ord : 0;

/**
 * The sections that together are the list a question asks for, when the book writes that list as
 * sibling sections rather than list items: "What are the phases of the capstone project?" is
 * answered by "Development Phases" > "Phase 1: Foundation" … "Phase 4: Deployment", each a section
 * of its own whose items say nothing of phases. Two or more passages (of those given) under the
 * same parent heading, where the parent names the listed noun ("Development Phases") or each
 * section's own heading does ("Phase 2: Integration"). Of several such groups, the one holding the
 * best-ranked passage. `asked` is the question's terms.
 *
 * @example
 * siblingSections('phases', chunks, analyze, new Set(['phase', 'capston', 'project']))?.chunks; // [2, 0, 1, 3]: Phase 1 … Phase 4
 */
export function siblingSections(
  noun: string,
  chunks: readonly RetrievedChunk[],
  terms: (text: string) => string[],
  asked: ReadonlySet<string>,
  kept: (chunkIndex: number) => boolean = () => true,
): SiblingSections | undefined {
  const nounTerms = terms(noun);
  if (nounTerms.length === 0) return undefined;
  const names = (heading: string | undefined) => {
    if (heading === undefined) return false;
    const own = new Set(terms(heading));
    return nounTerms.every((term) => own.has(term));
  };
  const groups = new Map<
    string,
    { members: number[]; parentNames: boolean; allOwn: boolean; headings: Set<string> }
  >();
  chunks.forEach((chunk, chunkIndex) => {
    if (!kept(chunkIndex)) return;
    const path = headingPathOf(chunk);
    if (path.length < 2) return;
    const parent = path.slice(0, -1);
    const key = `${chunk.source}\u0000${parent.join('\u0000')}`;
    const group = groups.get(key) ?? {
      members: [],
      parentNames: names(parent.at(-1)),
      allOwn: true,
      headings: new Set<string>(),
    };
    group.members.push(chunkIndex);
    group.headings.add(path.at(-1) ?? '');
    group.allOwn &&= names(path.at(-1));
    groups.set(key, group);
  });
  // "Which architecture optimization techniques …" asks for one of the sections under
  // "Optimization Techniques", not for them all: a question naming a word that only one member's
  // own heading has.
  const singlesOneOut = (members: readonly number[]) => {
    const counts = new Map<string, number>();
    const owns = members.map((chunkIndex) => {
      const own = new Set(terms(headingPathOf(chunks[chunkIndex] as RetrievedChunk).at(-1) ?? ''));
      for (const term of own) counts.set(term, (counts.get(term) ?? 0) + 1);
      return own;
    });
    return owns.some((own) => [...own].some((term) => counts.get(term) === 1 && asked.has(term)));
  };
  let best: number[] | undefined;
  for (const group of groups.values()) {
    // The parts of one long section, cut where it outgrew a chunk, are one section, not siblings:
    // over the ROS 2 docs the two parts of "QoS policies" were quoted as two sections' openings.
    if (group.headings.size < 2 || !(group.parentNames || group.allOwn)) continue;
    if (singlesOneOut(group.members)) continue;
    if (best === undefined || (group.members[0] ?? 0) < (best[0] ?? 0)) best = group.members;
  }
  if (best === undefined) return undefined;
  const sorted = [...best].sort((a, b) => {
    const first = chunks[a];
    const second = chunks[b];
    return first && second ? order(first) - order(second) : 0;
  });
  return { chunks: sorted };
}
