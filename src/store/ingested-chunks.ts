import type { ChunkRecord } from '../schema/index.js';

/**
 * `text` as the engine gives it back: through UTF-8 (a lone surrogate becomes U+FFFD), and a
 * string of its own. A parsed chunk's text is a slice or a rope of its file's text: kept as it
 * is, it kept every file's text and the parser's pieces alive (at ten times the ROS 2 docs,
 * 100 MB more at the peak than the chunks read back).
 */
const storedText = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** A lone UTF-16 surrogate, which the engine stores (UTF-8) as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A short string not cut from a file's text (an id, a path): copied only when not well formed. */
const storedName = (name: string) => (LONE_SURROGATE.test(name) ? storedText(name) : name);

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Printable ASCII (any other key takes the slower way, which gives the same order). */
const ASCII = /^[ -~]*$/;

/** JSONB's order of an object's keys: shorter first, then by their UTF-8 bytes. */
const jsonbKeyOrder = (a: string, b: string) => {
  // ASCII keys (all of cohort's own) compare as their bytes do, without encoding them.
  if (ASCII.test(a) && ASCII.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return utf8(a).length - utf8(b).length || Buffer.compare(utf8(a), utf8(b));
};

/**
 * `value` as it comes back from a JSONB column: through JSON (no `undefined`), with every object's
 * keys in JSONB's order (shorter first, then by their UTF-8 bytes).
 */
function asJsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonb);
  // Strings from `JSON.parse` are its own already.
  if (typeof value === 'string') return storedName(value);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  return Object.fromEntries(
    keys.map((key) => [storedName(key), asJsonb((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The stored form of each written chunk made so far, kept while the written chunk is: `cohort
 * ingest` asks for every chunk after its ingestion twice (to build the router and the index from
 * while the engine writes, then to save them once it has), and the second costs only the sort.
 */
const storedForms = new WeakMap<ChunkRecord, ChunkRecord>();

/** `chunk` as the engine returns it once stored (see `chunkFromRow`), not the object written. */
function asStored(chunk: ChunkRecord): ChunkRecord {
  let stored = storedForms.get(chunk);
  if (!stored) storedForms.set(chunk, (stored = storedForm(chunk)));
  return stored;
}

function storedForm(chunk: ChunkRecord): ChunkRecord {
  return {
    id: storedName(chunk.id),
    source: storedName(chunk.source),
    ord: chunk.ord,
    title: storedText(chunk.title),
    headingPath: asJsonb(JSON.parse(JSON.stringify(chunk.headingPath))) as string[],
    domain: storedName(chunk.domain),
    text: storedText(chunk.text),
    hash: storedName(chunk.hash),
    metadata: asJsonb(JSON.parse(JSON.stringify(chunk.metadata))) as Record<string, unknown>,
  };
}

/**
 * Every chunk of a store after an ingestion, in store order (`ORDER BY source, ord` under the
 * embedded engine's C collation: by the sources' UTF-8 bytes), from the chunks the ingestion
 * wrote (`written`, the documents it added or replaced) and the store's `others`, read from it in
 * store order. So the chunks just parsed need not be read back from the engine. Equal to
 * `ChunkRepo.all()` as far as the content hash tells: the caller compares the two hashes.
 *
 * @example
 * const all = chunksAfterIngestion(written, await repo.allExcept(writtenSources));
 */
export function chunksAfterIngestion(
  written: readonly ChunkRecord[],
  others: readonly ChunkRecord[],
): ChunkRecord[] {
  const bySource = new Map<string, ChunkRecord[]>();
  for (const chunk of [...others, ...written.map(asStored)]) {
    const group = bySource.get(chunk.source);
    if (group) group.push(chunk);
    else bySource.set(chunk.source, [chunk]);
  }
  const sources = [...bySource.keys()]
    .map((source) => ({ source, bytes: utf8(source) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  return sources.flatMap(({ source }) =>
    (bySource.get(source) ?? []).sort((a, b) => a.ord - b.ord),
  );
}
