import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { CohortError } from '../../errors/index.js';
import type { ChunkRecord, DocumentRecord } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { chunkDocument, sha1 } from './chunker.js';
import { documentDomain, tagDomain } from './domain-tagger.js';
import { parseMarkdown } from './markdown-parser.js';
import type { ParsedDocument } from './parsed-document.js';
import { parseRst } from './rst-parser.js';

/** File extensions the knowledge base reads. */
export const SUPPORTED_EXTENSIONS: readonly string[] = ['.md', '.mdx', '.rst'];

/** Progress of one ingestion, reported after each file is stored. */
export interface IngestProgress {
  done: number;
  total: number;
  file: string;
}

/** Options of {@link ingest}. */
export interface IngestOptions {
  store: Pick<Store, 'chunks'>;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /** Remove stored documents whose file is no longer in the folder (default false: only report them). */
  prune?: boolean;
}

/** What one ingestion did. */
export interface IngestSummary {
  /** Supported files found in the folder. */
  files: number;
  added: number;
  replaced: number;
  unchanged: number;
  /** Chunks written by this run (new and replaced files). */
  chunks: number;
  /** Stored sources with no file in the folder any more. */
  missing: string[];
  /** Of `missing`, the ones removed because `prune` was set. */
  removed: string[];
  elapsedMs: number;
}

/** Lists supported files under `dir`, skipping `node_modules` and dot-folders, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && SUPPORTED_EXTENSIONS.includes(extname(entry.name).toLowerCase())) {
        found.push(path);
      }
    }
  };
  await walk(dir);
  return found.sort();
}

/** A readable fallback title from a path: `chapter-02/index.md` → `chapter-02`. */
function titleFromPath(source: string): string {
  const name = basename(source, extname(source));
  const parts = source.split('/');
  return name === 'index' && parts.length > 1 ? (parts.at(-2) ?? name) : name;
}

/** Parses one file by its extension. */
export function parseFile(source: string, text: string): ParsedDocument {
  const fallback = titleFromPath(source);
  return extname(source).toLowerCase() === '.rst'
    ? parseRst(text, fallback)
    : parseMarkdown(text, source, fallback);
}

/** Parses, chunks and tags one file into the records the store keeps. */
export function prepareDocument(
  source: string,
  text: string,
): { document: DocumentRecord; chunks: ChunkRecord[] } {
  const parsed = parseFile(source, text);
  const document = {
    source,
    title: parsed.title,
    hash: sha1(text),
    domain: documentDomain(source, parsed.title),
  };
  const chunks = chunkDocument(parsed, source).map((chunk) => ({
    ...chunk,
    domain: tagDomain(chunk),
  }));
  return { document, chunks };
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new CohortError('aborted', 'Ingestion was cancelled.');
}

/**
 * Ingests every .md/.mdx/.rst file under `dir` into the store. Unchanged files (same content hash)
 * are skipped, changed files replace their chunks. All files are read and parsed before anything
 * is written, so a missing folder, a folder with nothing to ingest or a file that does not parse
 * is an `invalid_input` error and leaves the store unchanged.
 *
 * @example
 * const summary = await ingest('docs', { store, onProgress: (p) => bar(p.done, p.total) });
 */
export async function ingest(dir: string, options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const { store, signal } = options;
  throwIfAborted(signal);
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
  } catch (cause) {
    throw new CohortError('invalid_input', `Cannot ingest "${dir}": it is not a readable folder.`, {
      file: dir,
      cause,
    });
  }
  let files: string[];
  try {
    files = await listFiles(dir);
  } catch (cause) {
    throw new CohortError('invalid_input', `Cannot read the folder "${dir}": ${String(cause)}`, {
      file: dir,
      cause,
    });
  }
  if (files.length === 0) {
    throw new CohortError(
      'invalid_input',
      `No ${SUPPORTED_EXTENSIONS.join('/')} files in "${dir}". Point ingestion at the folder holding the book's markdown or reStructuredText.`,
      { file: dir },
    );
  }

  const stored = await store.chunks.documentHashes();
  const prepared: { source: string; document?: DocumentRecord; chunks?: ChunkRecord[] }[] = [];
  for (const file of files) {
    throwIfAborted(signal);
    const source = relative(dir, file).split(sep).join('/');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (cause) {
      throw new CohortError('invalid_input', `Cannot read "${file}": ${String(cause)}`, {
        file,
        cause,
      });
    }
    if (stored.get(source) === sha1(text)) prepared.push({ source });
    else prepared.push({ source, ...prepareDocument(source, text) });
  }

  const summary: IngestSummary = {
    files: files.length,
    added: 0,
    replaced: 0,
    unchanged: 0,
    chunks: 0,
    missing: [],
    removed: [],
    elapsedMs: 0,
  };
  for (const [index, item] of prepared.entries()) {
    throwIfAborted(signal);
    if (item.document && item.chunks) {
      const outcome = await store.chunks.upsertDocument(item.document, item.chunks);
      summary[outcome] += 1;
      if (outcome !== 'unchanged') summary.chunks += item.chunks.length;
    } else {
      summary.unchanged += 1;
    }
    options.onProgress?.({ done: index + 1, total: prepared.length, file: item.source });
  }

  const present = new Set(prepared.map((item) => item.source));
  summary.missing = [...stored.keys()].filter((source) => !present.has(source)).sort();
  if (options.prune) {
    for (const source of summary.missing) {
      if (await store.chunks.removeDocument(source)) summary.removed.push(source);
    }
  }
  summary.elapsedMs = Math.round(performance.now() - started);
  return summary;
}
