import type { LexicalIndexData } from './lexical-index.js';
import type { SavedRanker } from './ranker.js';

/**
 * First bytes of a saved index: the format's name and version (a new layout bumps the digit).
 * 2: the acronyms and bold-lead definitions read from the text are saved with the index.
 * 3: the definitions also hold the terms sections define under their own heading; an index saved
 *    before lacks them, so it is rebuilt rather than read.
 * 4: a page's title is also a term its overview defines ("Tf2 > Overview": "tf2 is the transform
 *    library…"), and "Many of the X tutorials are…" defines nothing.
 * 5: a page's opening section also holds its short title ("Discovery").
 * 6: each chunk's share of code (the `codeShare` technique) is saved with the index.
 * 7: a mined acronym ending in a capital S keeps it in its key ("DDS" is `dds`, was `dd`).
 * 8: the corpus's full names for words written alone (`findFullNames`) are saved with the index.
 */
const MAGIC = 'CLX8';

type ArrayName = Exclude<keyof LexicalIndexData, 'terms' | 'bigrams'>;

/** The typed arrays of an index, in the order they are written, with their element types. */
const ARRAYS: ReadonlyArray<
  readonly [ArrayName, Int32ArrayConstructor | Float32ArrayConstructor | Float64ArrayConstructor]
> = [
  ['postingStarts', Int32Array],
  ['postingDocs', Int32Array],
  ['postingWeights', Float32Array],
  ['vectorStarts', Int32Array],
  ['vectorTerms', Int32Array],
  ['vectorCounts', Float32Array],
  ['vectorLengths', Float64Array],
];

interface Header {
  terms: string[];
  bigrams: boolean;
  lengths: number[];
  /** The acronym map as [acronym, long forms] pairs, in the map's order. */
  acronyms: [string, string[]][];
  /** The definitions as [chunk number, stems] pairs, in chunk order. */
  definitions: [number, string[]][];
  /** The chunks with code, as [chunk number, share of code] pairs, in chunk order. */
  codeShares: [number, number][];
  /** The full names as [word, name] pairs, by word. */
  fullNames: [string, string][];
}

const align8 = (offset: number) => Math.ceil(offset / 8) * 8;

/**
 * Writes a built index as bytes: `CLX8`, the header's byte length (u32), a JSON header (terms,
 * flags, array lengths, acronyms, definitions, code shares, full names), then each typed array at
 * an 8-byte boundary, in platform byte order.
 *
 * @example
 * await store.cache.put('lexical-index', key, encodeLexicalIndex(ranker.toSave()));
 */
export function encodeLexicalIndex(saved: SavedRanker): Uint8Array {
  const data = saved.index;
  const header: Header = {
    terms: data.terms,
    bigrams: data.bigrams,
    lengths: ARRAYS.map(([name]) => data[name].length),
    acronyms: [...saved.acronyms].map(([acronym, forms]) => [acronym, [...forms]]),
    definitions: saved.definitions.map(({ doc, stems }) => [doc, stems]),
    codeShares: saved.codeShares.map(([doc, share]) => [doc, share]),
    fullNames: saved.fullNames.map(([word, name]) => [word, name]),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  let size = align8(8 + headerBytes.length);
  for (const [name] of ARRAYS) size = align8(size + data[name].byteLength);
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(bytes.buffer).setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  let offset = align8(8 + headerBytes.length);
  for (const [name] of ARRAYS) {
    const array = data[name];
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset = align8(offset + array.byteLength);
  }
  return bytes;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isHeader = (value: unknown, chunkCount: number): value is Header => {
  const header = value as Partial<Header> | null;
  return (
    typeof header === 'object' &&
    header !== null &&
    isStrings(header.terms) &&
    typeof header.bigrams === 'boolean' &&
    Array.isArray(header.lengths) &&
    header.lengths.length === ARRAYS.length &&
    header.lengths.every((length) => Number.isInteger(length) && length >= 0) &&
    Array.isArray(header.acronyms) &&
    header.acronyms.every(
      (pair) =>
        Array.isArray(pair) &&
        pair.length === 2 &&
        typeof pair[0] === 'string' &&
        isStrings(pair[1]),
    ) &&
    isChunkPairs(
      header.definitions,
      chunkCount,
      (terms): terms is string[] => isStrings(terms) && terms.length > 0,
    ) &&
    isChunkPairs(
      header.codeShares,
      chunkCount,
      (share): share is number => typeof share === 'number' && share >= 0 && share <= 1,
    ) &&
    Array.isArray(header.fullNames) &&
    header.fullNames.every((pair) => isStrings(pair) && pair.length === 2)
  );
};

/** A list of `[chunk, value]` pairs, each chunk an index below `chunkCount`, each value `isValue`. */
const isChunkPairs = <T>(
  list: unknown,
  chunkCount: number,
  isValue: (value: unknown) => value is T,
): list is [number, T][] =>
  Array.isArray(list) &&
  list.every(
    (pair) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      Number.isInteger(pair[0]) &&
      pair[0] >= 0 &&
      pair[0] < chunkCount &&
      isValue(pair[1]),
  );

/**
 * Reads bytes written by {@link encodeLexicalIndex} for an index over `chunkCount` chunks;
 * undefined when they are not a whole index of this format over that many chunks (then the caller
 * builds the index again). Every posting and vector entry is checked to point inside the index, so
 * damaged bytes cannot make a query read out of bounds.
 */
export function decodeLexicalIndex(bytes: Uint8Array, chunkCount: number): SavedRanker | undefined {
  try {
    if (bytes.length < 8 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC)
      return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = view.getUint32(4, true);
    if (8 + headerLength > bytes.length) return undefined;
    const header: unknown = JSON.parse(
      new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)),
    );
    if (!isHeader(header, chunkCount)) return undefined;
    let offset = align8(8 + headerLength);
    const arrays: Partial<Record<ArrayName, Int32Array | Float32Array | Float64Array>> = {};
    for (const [i, [name, Type]] of ARRAYS.entries()) {
      const length = header.lengths[i] as number;
      const byteLength = length * Type.BYTES_PER_ELEMENT;
      if (offset + byteLength > bytes.length) return undefined;
      const at = bytes.byteOffset + offset;
      if (at % Type.BYTES_PER_ELEMENT === 0) {
        // Read in place (a start cache's file, a row's bytes): no copy of a 29 MB index.
        arrays[name] = new Type(bytes.buffer as ArrayBuffer, at, length);
      } else {
        // Not aligned (bytes at an odd place of a larger buffer): copied. Not `bytes.slice`,
        // which on a Node Buffer is a view.
        const part = new Uint8Array(byteLength);
        part.set(bytes.subarray(offset, offset + byteLength));
        arrays[name] = new Type(part.buffer);
      }
      offset = align8(offset + byteLength);
    }
    const data = { terms: header.terms, bigrams: header.bigrams, ...arrays } as LexicalIndexData;
    if (!isConsistent(data, chunkCount)) return undefined;
    return {
      index: data,
      acronyms: new Map(header.acronyms.map(([acronym, forms]) => [acronym, new Set(forms)])),
      definitions: header.definitions.map(([doc, stems]) => ({ doc, stems })),
      codeShares: header.codeShares,
      fullNames: header.fullNames,
    };
  } catch {
    return undefined;
  }
}

/** True when every offset and id in `data` stays inside the index over `chunkCount` chunks. */
function isConsistent(data: LexicalIndexData, chunkCount: number): boolean {
  const terms = data.terms.length;
  const monotone = (starts: Int32Array, count: number, end: number) => {
    if (starts.length !== count + 1 || starts[0] !== 0 || starts[count] !== end) return false;
    for (let i = 0; i < count; i++)
      if ((starts[i] as number) > (starts[i + 1] as number)) return false;
    return true;
  };
  const within = (ids: Int32Array, limit: number) => {
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (id < 0 || id >= limit) return false;
    }
    return true;
  };
  return (
    monotone(data.postingStarts, terms, data.postingDocs.length) &&
    data.postingWeights.length === data.postingDocs.length &&
    within(data.postingDocs, chunkCount) &&
    monotone(data.vectorStarts, chunkCount, data.vectorTerms.length) &&
    data.vectorCounts.length === data.vectorTerms.length &&
    within(data.vectorTerms, terms) &&
    data.vectorLengths.length === chunkCount
  );
}
