import type { ChunkRecord } from '../../schema/index.js';

/**
 * The numbers of the chunks `test` holds for, in chunk order: the pages a question is answered
 * from whole (the opening page, the licence, the acknowledgments).
 *
 * @example
 * chunksWhere(chunks, (chunk) => chunk.source === 'intro.md'); // Int32Array [0, 1]
 */
export function chunksWhere(
  chunks: readonly ChunkRecord[],
  test: (chunk: ChunkRecord) => boolean,
): Int32Array {
  const docs: number[] = [];
  chunks.forEach((chunk, doc) => {
    if (test(chunk)) docs.push(doc);
  });
  return Int32Array.from(docs);
}
