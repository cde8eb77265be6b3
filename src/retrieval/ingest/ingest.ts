import { constants } from 'node:fs';
import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { OPEN_WITHOUT_WAITING, undecodedPathProblem } from '../../config/index.js';
import { CohortError, isCohortError, reasonInFile } from '../../errors/index.js';
import type { ChunkRecord, DocumentRecord } from '../../schema/index.js';
import type { DocumentWrite, FileStatRecord, Store, UpsertOutcome } from '../../store/index.js';
import { chunkDocument, sha1 } from './chunker.js';
import { decodeText } from './decode-text.js';
import { documentDomain, tagDomain } from './domain-tagger.js';
import { fileStatOf, isRacy, statKey, statVouches, wallClockNs } from './file-stat.js';
import { parseMarkdown } from './markdown-parser.js';
import type { ParsedDocument } from './parsed-document.js';
import { parseRst } from './rst-parser.js';
import {
  notRegularFileReason,
  specialFileType,
  type SkipKind,
  type SkippedFile,
} from './skipped-file.js';

export type { SkipKind, SkippedFile };

/** File extensions the knowledge base reads. */
export const SUPPORTED_EXTENSIONS: readonly string[] = ['.md', '.mdx', '.rst'];

/** Largest file ingested, in bytes; a bigger file is skipped and reported (default 8 MB). */
export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Progress of one ingestion, reported after each file is stored. */
export interface IngestProgress {
  done: number;
  total: number;
  file: string;
}

/** What an ingestion writes to: the chunks, and (optionally) the named values of a full store. */
export type IngestStore = Pick<Store, 'chunks'> & Partial<Pick<Store, 'meta'>>;

/** Options of {@link ingest}. */
export interface IngestOptions {
  /**
   * With `meta`, the store records which folder each document came from: a second folder whose
   * file has the same relative path as another folder's is refused, and `prune` removes only this
   * folder's documents. Without it (a bare chunk store), every stored document counts as this
   * folder's. It may be given while it is still opening (a promise of it): the files are then read
   * and parsed meanwhile, and checked against what it holds once it is open, with the same result.
   */
  store: IngestStore | Promise<IngestStore>;
  /** The folder's listing when the caller already made it ({@link findIngestEntries}). */
  entries?: IngestEntries;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /** Remove stored documents whose file is no longer in the folder (default false: only report them). */
  prune?: boolean;
  /** Files larger than this many bytes are skipped and reported ({@link DEFAULT_MAX_FILE_BYTES}). */
  maxFileBytes?: number;
  /**
   * Let this folder's files replace documents another folder ingested at the same relative paths
   * (default false: such an ingestion is refused, naming the first clash).
   */
  replace?: boolean;
  /**
   * This ingestion stands in until the user brings a book: the sample book ingested on first use.
   * The next ingestion of another folder removes every document it brought, in its transaction,
   * so the user's book is not answered from a mix of it and the sample's other chapters.
   */
  standIn?: boolean;
  /**
   * Told, once every batch of this ingestion's writes is sent to the engine (before it has
   * answered them; see `ChunkRepo.applyIngestion`), what it writes: the documents with their
   * chunks, and whether the store held no document before (then, once the ingestion commits,
   * these are every chunk it holds). Not told when no document is written. A caller may build
   * from the chunks on this thread without holding the writes up: `cohort ingest` builds the
   * router and the index meanwhile.
   */
  onWriting?: (writing: { documents: readonly DocumentWrite[]; storeWasEmpty: boolean }) => void;
  /**
   * Told, once every file is read and parsed and before the store is asked what it holds (a store
   * still opening may not be open yet), the documents parsed with their chunks: what the
   * ingestion writes when the store holds none of them. `cohort ingest` into a new data folder
   * starts building its index from them there, while the engine is still starting.
   */
  onParsed?: (documents: readonly DocumentWrite[]) => void;
  /**
   * Read and hash every file, even those whose size, times, inode and device are what the store
   * recorded when it last read them (default false: those are counted unchanged unread; see
   * file-stat.ts). For a file changed by a program that put its times back.
   */
  rehash?: boolean;
  /** The wall clock, in nanoseconds since the epoch (tests set it; default {@link wallClockNs}). */
  now?: () => bigint;
}

/** A file ingested in part, and what was cut. */
export interface TruncatedFile {
  source: string;
  reason: string;
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
  /**
   * Files that were not ingested, by name, with why: symbolic links, FIFOs, sockets and devices
   * with a supported name, and files that are binary, not UTF-8/UTF-16 text, too large or not a
   * valid document.
   */
  skipped: SkippedFile[];
  /** Files ingested in part: a section over {@link MAX_SECTION_CHARS} was cut (`reason` says which). */
  truncated: TruncatedFile[];
  /**
   * Files written by this run that hold no text to search (headings only, or nothing under them),
   * by source: counted as added, they can answer nothing, and a reader wondering why a file is
   * never cited is told so.
   */
  empty: string[];
  /** Documents of the first-use sample book this ingestion removed (see `standIn`), by source. */
  standInRemoved: string[];
  elapsedMs: number;
}

/**
 * What a folder holds for ingestion: supported files, symbolic links that are not followed, and
 * files of a supported name that are not regular files.
 */
export interface IngestEntries {
  files: string[];
  /** Links to a folder or a supported file: named in the summary's `skipped`, never read. */
  links: string[];
  /**
   * FIFOs, sockets and devices with a supported name (`pipe.md`): named in the summary's
   * `skipped`, never opened (reading a FIFO waits for a writer; a device may never end).
   */
  special?: { path: string; type: string }[];
  /**
   * Folders inside the one ingested that could not be listed (a name that is not UTF-8, a path
   * longer than the system allows, no permission), with why: named in the summary's `skipped`;
   * what an earlier ingestion stored from them is kept, never counted missing nor pruned.
   */
  unreadable?: { path: string; reason: string }[];
}

/**
 * Lists supported files under `dir`, skipping `node_modules` and dot-folders, sorted. Symbolic
 * links are not followed (a link could lead out of the folder, to a secret or into a loop), and
 * FIFOs, sockets and devices are not opened; the ones with a name that would have been ingested
 * are returned apart so the summary can name them.
 */
async function listEntries(dir: string): Promise<IngestEntries> {
  const found: Required<IngestEntries> = { files: [], links: [], special: [], unreadable: [] };
  const supported = (name: string) => SUPPORTED_EXTENSIONS.includes(extname(name).toLowerCase());
  const walk = async (folder: string) => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (cause) {
      // The folder given is the caller's error; one folder inside it does not stop the others.
      if (folder === dir) throw cause;
      found.unreadable.push({ path: folder, reason: unreadableFolderReason(folder, cause) });
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && supported(entry.name)) found.files.push(path);
      else if (entry.isSymbolicLink() && (supported(entry.name) || (await isFolder(path)))) {
        found.links.push(path);
      } else if (supported(entry.name)) {
        const type = specialFileType(entry);
        if (type) found.special.push({ path, type });
      }
    }
  };
  await walk(dir);
  found.files.sort();
  found.links.sort();
  found.special.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  found.unreadable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return found;
}

/** Why a folder inside the one ingested could not be listed, in words a user can act on. */
function unreadableFolderReason(folder: string, cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  // Node lists a name that is not UTF-8 with U+FFFD in place of its bytes, a name no folder has.
  if (code === 'ENOENT' && folder.includes('\uFFFD'))
    return 'a folder that cannot be listed: its name is not valid UTF-8 (shown with �); rename the folder';
  if (code === 'ENAMETOOLONG')
    return 'a folder that cannot be listed: its path is longer than the system allows (ENAMETOOLONG); move its files to a shallower folder';
  if (code === 'EACCES' || code === 'EPERM')
    return `a folder that cannot be listed: permission denied (${code}); let this user read it, or move its files out`;
  return `a folder that cannot be listed (${code ?? String(cause)})`;
}

/** Whether `path` leads to a folder (following links); false when it leads nowhere. */
async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Why a symbolic link is named in `skipped`. */
const LINK_REASON =
  'a symbolic link, not followed: ingest the folder it points to, or copy the file in';

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

/**
 * The version of the parser of each format whose output changed since stores were first written:
 * a stored document is unchanged only if its text and its parser's version are the same, so a
 * `cohort ingest` after an upgrade re-reads the files the new parser reads differently
 * (reStructuredText: 2 keeps tabs, admonitions' and figures' content; 3 numbers "#." items; 4
 * drops escaped spaces; 5 reads a list-table as a table; 6 chunks keep the indent of a line they
 * start with, a nested item cut from its list; 7 reads grid and simple tables as tables, leaves a
 * list-table cell that is only an image empty, and repeats a table's header in each chunk it is
 * cut into; 8, and Markdown's 2: a split section's last chunk is no lone closing line, see
 * `MIN_LAST_PIECE_CHARS`).
 */
const PARSER_VERSIONS: Record<string, number> = { '.rst': 8, '.md': 2, '.mdx': 2 };

/** A document's hash: its text's, and its parser's version when that changed since version 1. */
export function documentHash(source: string, text: string): string {
  const version = PARSER_VERSIONS[extname(source).toLowerCase()];
  return version === undefined ? sha1(text) : sha1(`${text}\u0000parser ${version}`);
}

/** What a document's hash depends on besides its text (see `statKey`): its parser's version. */
const hashScheme = (source: string) =>
  `parser ${PARSER_VERSIONS[extname(source).toLowerCase()] ?? 1}`;

/** Files read ahead of the one an ingestion parses (see `ingest`). */
const READ_AHEAD = 4;

/** Longest section body kept, in characters; the rest of a longer section is cut and reported. */
export const MAX_SECTION_CHARS = 500_000;

/**
 * Parses, chunks and tags one file into the records the store keeps. A section longer than
 * {@link MAX_SECTION_CHARS} is cut to that length and named in `truncated`. `hash` is the text's
 * {@link documentHash}, when the caller has it already (an ingestion hashes every file first, to
 * tell unchanged ones): hashing the ROS 2 docs' 4 MB again was ≈ 30–60 ms of `cohort ingest`.
 */
export function prepareDocument(
  source: string,
  text: string,
  hash: string = documentHash(source, text),
): { document: DocumentRecord; chunks: ChunkRecord[]; truncated: string[] } {
  const parsed = parseFile(source, text);
  const truncated: string[] = [];
  parsed.sections = parsed.sections.map((section) => {
    if (section.text.length <= MAX_SECTION_CHARS) return section;
    truncated.push(
      `section "${section.headingPath.join(' > ') || parsed.title}" (line ${section.line}) has ${section.text.length} characters; the first ${MAX_SECTION_CHARS} were kept`,
    );
    return { ...section, text: section.text.slice(0, MAX_SECTION_CHARS) };
  });
  const document = {
    source,
    title: parsed.title,
    hash,
    domain: documentDomain(source, parsed.title),
  };
  const chunks = chunkDocument(parsed, source).map((chunk) => ({
    ...chunk,
    domain: tagDomain(chunk),
  }));
  return { document, chunks, truncated };
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new CohortError('aborted', 'Ingestion was cancelled.');
}

/**
 * The supported files under `dir`, sorted, and the symbolic links it did not follow; a missing
 * folder, a file given as the folder, an unreadable folder or one with nothing to ingest is an
 * `invalid_input` error. Shells call it before opening a store, so a wrong path creates nothing,
 * and hand the listing to {@link ingest} (`entries`) so the folder is walked once.
 *
 * @example
 * const entries = await findIngestEntries('docs'); // throws CohortError('invalid_input') when empty
 * await ingest('docs', { store, entries });
 */
export async function findIngestEntries(dir: string): Promise<IngestEntries> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
  } catch (cause) {
    const why = undecodedPathProblem(dir) ?? 'it is not a readable folder';
    throw new CohortError('invalid_input', `Cannot ingest "${dir}": ${why}.`, {
      file: dir,
      cause,
    });
  }
  let entries: IngestEntries;
  try {
    entries = await listEntries(dir);
  } catch (cause) {
    throw new CohortError('invalid_input', `Cannot read the folder "${dir}": ${String(cause)}`, {
      file: dir,
      cause,
    });
  }
  if (entries.files.length === 0) {
    const special = entries.special ?? [];
    const unreadable = entries.unreadable ?? [];
    const names = (paths: readonly string[]) =>
      paths
        .slice(0, 3)
        .map((path) => relative(dir, path))
        .join(', ');
    const left = [
      ...(entries.links.length
        ? [`symbolic links, which are not followed: ${names(entries.links)}`]
        : []),
      ...(special.length
        ? [`files that are not regular files: ${names(special.map((entry) => entry.path))}`]
        : []),
      ...(unreadable.length
        ? [`folders that cannot be listed: ${names(unreadable.map((entry) => entry.path))}`]
        : []),
    ];
    const links = left.length ? ` (only ${left.join('; and ')})` : '';
    throw new CohortError(
      'invalid_input',
      `No ${SUPPORTED_EXTENSIONS.join('/')} files in "${dir}"${links}. Point ingestion at the folder holding the book's markdown or reStructuredText.`,
      { file: dir },
    );
  }
  return entries;
}

/**
 * Ingests every .md/.mdx/.rst file under `dir` into the store. Unchanged files (same content hash)
 * are skipped, changed files replace their chunks. All files are read and parsed before anything
 * is written, and everything is then written in one transaction, so an ingestion is stored whole
 * or not at all (a kill part-way leaves the store as it was). A missing folder or a folder with
 * nothing to ingest is an `invalid_input` error that changes nothing; a file that is not text
 * (binary, NUL bytes, invalid UTF-8/UTF-16) or is too large is skipped and named in `skipped`.
 *
 * @example
 * const summary = await ingest('docs', { store, onProgress: (p) => bar(p.done, p.total) });
 */
export async function ingest(dir: string, options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const startedNs = (options.now ?? wallClockNs)();
  const { signal } = options;
  // A store still opening (a new folder's engine starting on its own thread): the files are read
  // and parsed on this one meanwhile, instead of one after the other.
  const opening = isPromise(options.store) ? options.store : undefined;
  let store = opening ? undefined : (options.store as IngestStore);
  // Watched from the start: a store that fails to open fails this ingestion, not the process.
  opening?.then(
    (opened) => (store = opened),
    () => undefined,
  );
  throwIfAborted(signal);
  const {
    files,
    links,
    special = [],
    unreadable = [],
  } = options.entries ?? (await findIngestEntries(dir));
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const root = resolve(dir);
  let known: StoredState | undefined = store
    ? await storedState(store, dir, files, options)
    : undefined;
  const prepared: PreparedFile[] = [];
  const sourceOf = (path: string) => relative(dir, path).split(sep).join('/');
  const skipped: SkippedFile[] = [
    ...links.map((link) => ({
      source: sourceOf(link),
      reason: LINK_REASON,
      kind: 'symbolic_link' as const,
    })),
    ...special.map(({ path, type }) => ({
      source: sourceOf(path),
      reason: notRegularFileReason(type),
      kind: 'not_regular_file' as const,
    })),
    ...unreadable.map(({ path, reason }) => ({
      source: sourceOf(path),
      reason,
      kind: 'unreadable' as const,
    })),
  ];
  // Files are read a few ahead of the one parsed: Node's file system threads read the next ones
  // (an open, a stat, a read and a close each) while this thread parses, instead of this thread
  // waiting on each read in turn.
  const reads = new Map<string, ReturnType<typeof readCapped>>();
  // Each file's stats, taken before it is read: a change after them shows in the next ones.
  const stats = files.map(fileStatOf);
  // Whether the store's record of the file's stats says it holds this file's text already.
  const vouched = (index: number, source: string) =>
    known !== undefined &&
    !options.rehash &&
    known.stored.has(source) &&
    (stats[index]?.size ?? Infinity) <= maxBytes &&
    statVouches(known.fileStats.get(source), stats[index], hashScheme(source), startedNs);
  // Hashed files whose store record this ingestion writes, once their documents are stored.
  const hashed = new Map<string, { index: number; stat: string; hash: string }>();
  const readAhead = (from: number) => {
    for (const [offset, ahead] of files.slice(from, from + READ_AHEAD).entries()) {
      if (reads.has(ahead) || vouched(from + offset, sourceOf(ahead))) continue;
      const reading = readCapped(ahead, maxBytes);
      // Not awaited when the ingestion stops first (cancelled, a file that stops it).
      reading.catch(() => undefined);
      reads.set(ahead, reading);
    }
  };
  for (const [index, file] of files.entries()) {
    throwIfAborted(signal);
    if (!known && store) known = await storedState(store, dir, files, options);
    const source = sourceOf(file);
    if (vouched(index, source)) {
      prepared.push({ source });
      continue;
    }
    readAhead(index);
    const read = await (reads.get(file) ?? readCapped(file, maxBytes));
    reads.delete(file);
    if (!read.ok) {
      skipped.push({ source, reason: read.reason, kind: read.kind });
      continue;
    }
    const decoded = decodeText(read.bytes);
    if (!decoded.ok) {
      skipped.push({ source, reason: decoded.reason, kind: 'not_text' });
      continue;
    }
    const text = decoded.text;
    const hash = documentHash(source, text);
    const seen = stats[index];
    // A file changed too close to this ingestion's start gets no record: it is read next time.
    if (seen?.isFile() && !isRacy(seen, startedNs))
      hashed.set(source, { index, stat: statKey(seen, hashScheme(source)), hash });
    if (known && known.stored.get(source) === hash) {
      prepared.push({ source });
      continue;
    }
    let parsed: ReturnType<typeof prepareDocument>;
    try {
      parsed = prepareDocument(source, text, hash);
    } catch (error) {
      // A file cohort cannot read as a document (invalid frontmatter) is skipped and named, as a
      // file that is not text is: one bad file does not stop the folder's ingestion.
      if (!isCohortError(error, 'invalid_input')) throw error;
      // The file is named by the skip; a place in it ("b.md:2:17: …") is kept in words.
      const reason = reasonInFile(
        error.file === undefined
          ? new CohortError(error.code, error.message, { file: source })
          : error,
      );
      skipped.push({ source, reason: reason.replace(/\.$/, ''), kind: 'invalid_document' });
      continue;
    }
    const { document, chunks, truncated: cut } = parsed;
    // Parsed before the store could say whether it holds this text already: the hash decides later.
    prepared.push({ source, document, chunks, cut, ...(known ? {} : { hash }) });
  }
  options.onParsed?.(
    prepared.flatMap((item) =>
      item.document && item.chunks ? [{ document: item.document, chunks: item.chunks }] : [],
    ),
  );
  store ??= await (opening as Promise<IngestStore>);
  known ??= await storedState(store, dir, files, options);
  const { roots, standIn, others, stored } = known;
  const truncated: TruncatedFile[] = [];
  const empty: string[] = [];
  for (const item of prepared) {
    if (item.hash !== undefined && stored.get(item.source) === item.hash) {
      delete item.document;
      delete item.chunks;
      continue;
    }
    for (const reason of item.cut ?? []) truncated.push({ source: item.source, reason });
    if (item.chunks?.length === 0) empty.push(item.source);
  }

  const summary: IngestSummary = {
    files: files.length,
    added: 0,
    replaced: 0,
    unchanged: 0,
    chunks: 0,
    missing: [],
    removed: [],
    skipped,
    truncated,
    empty,
    standInRemoved: [],
    elapsedMs: 0,
  };
  // A skipped file keeps what an earlier ingestion stored for it: it is neither missing nor pruned.
  const present = new Set([
    ...prepared.map((item) => item.source),
    ...skipped.map((s) => s.source),
  ]);
  // Another folder's documents are not this folder's missing files, and are never pruned by it.
  // Nor is a document under a folder that could not be listed: it may well still be there.
  const unlisted = unreadable.map(({ path }) => `${sourceOf(path)}/`);
  const inUnlisted = (source: string) => unlisted.some((folder) => source.startsWith(folder));
  summary.missing = [...stored.keys()]
    .filter(
      (source) =>
        !present.has(source) && !others.has(source) && !standIn.has(source) && !inUnlisted(source),
    )
    .sort();
  const standInRemove = [...standIn].filter((source) => stored.has(source) && !present.has(source));

  const write = prepared.flatMap((item) =>
    item.document && item.chunks ? [{ document: item.document, chunks: item.chunks }] : [],
  );
  const chunkCounts = new Map(write.map((item) => [item.document.source, item.chunks.length]));
  let done = prepared.length - write.length;
  summary.unchanged = done;
  throwIfAborted(signal);
  const removedStandIn = new Set(standInRemove);
  // Which folder each document came from commits with the documents (a kill between the two
  // would leave them with no folder, and the next folder's clash check would miss them).
  const recordRoots = (removed: readonly string[]): Record<string, unknown> => {
    const kept = new Set(removed);
    const own = [...stored.keys(), ...present].filter(
      (source) => !others.has(source) && !kept.has(source),
    );
    const taken = new Set(own);
    const next: Record<string, string[]> = {};
    for (const [folder, sources] of Object.entries(roots)) {
      if (folder !== root) next[folder] = sources.filter((source) => !taken.has(source));
    }
    next[root] = [...taken].sort();
    return {
      [INGEST_ROOTS_KEY]: next,
      ...(options.standIn
        ? { [STAND_IN_ROOT_KEY]: root }
        : standIn.size > 0
          ? { [STAND_IN_ROOT_KEY]: null }
          : {}),
    };
  };
  const remove = [...(options.prune ? summary.missing : []), ...standInRemove];
  // Nothing to write, remove or record: no transaction, so the store's start cache and build
  // cache stay as they are (an ingestion's transaction deletes the first before it begins).
  const unchangedStore =
    write.length === 0 &&
    remove.length === 0 &&
    standIn.size === 0 &&
    !options.standIn &&
    (!store.meta || sameRoots(recordRoots([])[INGEST_ROOTS_KEY], roots));
  // One transaction: a crash or a kill part-way leaves the store as it was before this ingestion.
  const { outcomes, removed } = unchangedStore
    ? { outcomes: new Map<string, UpsertOutcome>(), removed: [] }
    : await store.chunks.applyIngestion({
        write,
        remove,
        // Told as soon as the engine has every batch, not once it has written the first: this thread
        // would wait for it meanwhile.
        onSent: () => options.onWriting?.({ documents: write, storeWasEmpty: stored.size === 0 }),
        onWritten: (sources) => {
          for (const source of sources) {
            done += 1;
            options.onProgress?.({ done, total: prepared.length, file: source });
          }
        },
        ...(store.meta ? { meta: recordRoots } : {}),
      });
  // What was read of each file is recorded once its document is stored, and forgotten for a file
  // skipped this time (its record, if any, vouches for a document it no longer holds).
  const records = known.fileStats;
  await store.chunks.recordFileStats({
    // A record that vouches for the file as it is now is left as it was (`--rehash` writes none).
    write: [...hashed]
      .filter(([source, { index, hash }]) => {
        const record = records.get(source);
        const scheme = hashScheme(source);
        return !(record?.hash === hash && statVouches(record, stats[index], scheme, startedNs));
      })
      .map(([source, { stat, hash }]) => ({ source, stat, hash, seenNs: startedNs })),
    forget: skipped.map((item) => item.source).filter((source) => records.has(source)),
  });
  for (const [source, outcome] of outcomes) {
    summary[outcome] += 1;
    if (outcome !== 'unchanged') summary.chunks += chunkCounts.get(source) ?? 0;
  }
  summary.removed = removed.filter((source) => !removedStandIn.has(source));
  summary.standInRemoved = removed.filter((source) => removedStandIn.has(source));
  summary.elapsedMs = Math.round(performance.now() - started);
  return summary;
}

/** A file read for an ingestion: its parsed document, unless the store holds it unchanged. */
interface PreparedFile {
  source: string;
  document?: DocumentRecord;
  chunks?: ChunkRecord[];
  /** Why parts of it were cut (too long a section). */
  cut?: readonly string[];
  /** Its text's hash, when it was parsed before the store was open to compare it with. */
  hash?: string;
}

/** What an ingestion needs to know of the store before it writes. */
interface StoredState {
  roots: Record<string, string[]>;
  /** The first-use sample book's documents, when this folder replaces it. */
  standIn: Set<string>;
  /** Other folders' documents, with the folder each came from. */
  others: Map<string, string>;
  /** The hash of each stored document's text. */
  stored: Map<string, string>;
  /** What was recorded of each stored document's file when it was last read. */
  fileStats: Map<string, FileStatRecord>;
}

/**
 * Reads what the store holds for an ingestion of `files` from `dir`, and refuses (before anything
 * is written) files whose relative paths another folder's documents have, unless `replace`.
 */
async function storedState(
  store: IngestStore,
  dir: string,
  files: readonly string[],
  options: Pick<IngestOptions, 'standIn' | 'replace'>,
): Promise<StoredState> {
  const root = resolve(dir);
  const roots = store.meta ? readRoots(await store.meta.get(INGEST_ROOTS_KEY)) : {};
  const standInRoot = store.meta ? await store.meta.get(STAND_IN_ROOT_KEY) : undefined;
  // The first-use sample book gives way whole to the first other folder ingested.
  const standIn =
    typeof standInRoot === 'string' && standInRoot !== root && !options.standIn
      ? new Set(roots[standInRoot] ?? [])
      : new Set<string>();
  if (standIn.size > 0 && typeof standInRoot === 'string') delete roots[standInRoot];
  const others = otherRoots(roots, root);
  const [stored, fileStats] = await Promise.all([
    store.chunks.documentHashes(),
    store.chunks.fileStats(),
  ]);
  const clashes = files
    .map((file) => relative(dir, file).split(sep).join('/'))
    .filter((source) => others.has(source));
  if (options.replace) {
    // This folder takes the clashing documents over: they are its own from now on.
    for (const source of clashes) others.delete(source);
  } else refuseClashes(clashes, dir, root, others);
  return { roots, standIn, others, stored, fileStats };
}

/** Whether `next` records the same folders with the same sources, in order, as `stored`. */
function sameRoots(next: unknown, stored: Record<string, string[]>): boolean {
  const folders = Object.entries(next as Record<string, string[]>);
  if (folders.length !== Object.keys(stored).length) return false;
  return folders.every(([folder, sources]) => {
    const old = stored[folder];
    return old?.length === sources.length && sources.every((source, i) => old[i] === source);
  });
}

/** Whether the store option is a promise of a store (still opening). */
function isPromise(value: IngestOptions['store']): value is Promise<IngestStore> {
  return typeof (value as Promise<IngestStore>).then === 'function';
}

/** Where the store keeps which folder each document came from: `{ folder: [source, …] }`. */
export const INGEST_ROOTS_KEY = 'ingest_roots';

/** Where the store keeps the folder of the first-use sample book, until another folder replaces it. */
export const STAND_IN_ROOT_KEY = 'ingest_stand_in';

/** The recorded folders and their sources; anything malformed reads as none recorded. */
function readRoots(value: unknown): Record<string, string[]> {
  const parsed: unknown = typeof value === 'string' ? safeJson(value) : value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const roots: Record<string, string[]> = {};
  for (const [folder, sources] of Object.entries(parsed)) {
    if (Array.isArray(sources))
      roots[folder] = sources.filter((s): s is string => typeof s === 'string');
  }
  return roots;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The sources other folders than `root` brought in, with the folder each came from. */
function otherRoots(roots: Record<string, string[]>, root: string): Map<string, string> {
  const others = new Map<string, string>();
  for (const [folder, sources] of Object.entries(roots)) {
    if (folder === root) continue;
    for (const source of sources) others.set(source, folder);
  }
  return others;
}

/**
 * Refuses, before anything is written, a folder with a file whose relative path another folder's
 * document already has: documents are keyed by relative path, so it would silently replace that
 * folder's document (and its citations) with this one.
 */
function refuseClashes(
  clashes: string[],
  dir: string,
  root: string,
  others: Map<string, string>,
): void {
  if (clashes.length === 0) return;
  const first = clashes[0] as string;
  const more = clashes.length > 1 ? ` (and ${clashes.length - 1} more)` : '';
  throw new CohortError(
    'conflict',
    `Cannot ingest "${root}": "${first}"${more} is already in the knowledge base from "${others.get(first)}". Documents are keyed by their path inside the folder, so this would replace that folder's document. Pass --replace to replace it with this folder's, ingest this folder into another data folder (--data-dir), or ingest one folder that holds both under different sub-folders.`,
    { file: join(dir, first) },
  );
}

/**
 * Reads a regular file up to `maxBytes`; a larger, unreadable or not regular file (a FIFO, socket
 * or device put in its place since the folder was listed) is reported, not thrown, and so is a
 * symbolic link put in its place: the listing skips links, and a file swapped for one between the
 * listing and the read would otherwise be followed out of the folder.
 *
 * @example
 * const read = await readCapped('/book/a.md', DEFAULT_MAX_FILE_BYTES);
 * if (read.ok) decodeText(read.bytes);
 */
export async function readCapped(
  file: string,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string; kind: SkipKind }> {
  let handle;
  try {
    // Without waiting: a file replaced by a FIFO after the folder was listed.
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | OPEN_WITHOUT_WAITING);
    const stats = await handle.stat();
    const type = stats.isFile() ? undefined : (specialFileType(stats) ?? 'a folder');
    if (type) return { ok: false, reason: notRegularFileReason(type), kind: 'not_regular_file' };
    const { size } = stats;
    if (size > maxBytes) {
      return {
        ok: false,
        reason: `${size} bytes is over the ${maxBytes}-byte limit per file; split it into smaller files`,
        kind: 'too_large',
      };
    }
    return { ok: true, bytes: await handle.readFile() };
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    // O_NOFOLLOW's answer when the name is now a symbolic link.
    if (code === 'ELOOP') return { ok: false, reason: LINK_REASON, kind: 'symbolic_link' };
    // A socket (or a device with no driver) cannot be opened at all: not a regular file either.
    if (code === 'ENXIO') {
      const reason = notRegularFileReason('a socket or device');
      return { ok: false, reason, kind: 'not_regular_file' };
    }
    // Node lists a name that is not UTF-8 with U+FFFD in place of its bytes, a name no file has.
    if (code === 'ENOENT' && file.includes('\uFFFD')) {
      const reason = 'cannot be read: its name is not valid UTF-8 (shown with �); rename the file';
      return { ok: false, reason, kind: 'unreadable' };
    }
    // Listed a moment ago: deleted or renamed since (the folder changes while it is read).
    if (code === 'ENOENT') {
      const reason =
        'removed or renamed after the folder was listed (ENOENT); ingest again once the folder stops changing';
      return { ok: false, reason, kind: 'unreadable' };
    }
    return { ok: false, reason: `cannot be read (${code ?? String(cause)})`, kind: 'unreadable' };
  } finally {
    await handle?.close();
  }
}
