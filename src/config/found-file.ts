import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  statSync,
  type Stats,
} from 'node:fs';
import { CohortError } from '../errors/index.js';

/**
 * The most a file cohort finds by itself may hold. The largest of them, a skill's SKILL.md, may
 * have a body of 100,000 characters (`skills/`); a file of hundreds of megabytes there was read
 * whole into memory (about 460 MB RSS for `cohort skills`) before anything refused it.
 */
export const MAX_FOUND_FILE_BYTES = 1024 * 1024;

/**
 * Reads an open file (or pipe, or device) to its end as UTF-8 text, or gives `undefined` as soon
 * as it holds more than `maxBytes`: a device such as /dev/zero never ends, and a huge file is not
 * read whole before it is refused. The buffer grows as the text does, so a small file costs a
 * small buffer whatever the bound.
 *
 * @example
 * const text = readUpTo(openSync(path, 'r'), 1024 * 1024) ?? tooLarge();
 */
export function readUpTo(handle: number, maxBytes: number): string | undefined {
  let bytes = Buffer.alloc(Math.min(maxBytes + 1, 64 * 1024));
  let length = 0;
  for (;;) {
    if (length === bytes.length) {
      const grown = Buffer.alloc(Math.min(maxBytes + 1, bytes.length * 2));
      bytes.copy(grown, 0, 0, length);
      bytes = grown;
    }
    const read = readSync(handle, bytes, length, bytes.length - length, null);
    if (read === 0) return new TextDecoder().decode(bytes.subarray(0, length));
    length += read;
    if (length > maxBytes) return undefined;
  }
}

/** What a path that is not a regular file is, in words a user recognises. */
function otherKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * The error of a file that could not be read, naming it and the system's reason (`ENOENT`…).
 *
 * @example
 * throw cannotRead('cohort.config.json', 'configuration file', cause);
 */
export function cannotRead(path: string, what: string, cause: unknown): CohortError {
  const reason = (cause as NodeJS.ErrnoException).code ?? String(cause);
  return new CohortError('invalid_input', `Cannot read the ${what} ${path} (${reason}).`, {
    file: path,
    cause,
  });
}

/**
 * True when anything sits at `path`, a symbolic link to nothing included (`existsSync` follows
 * the link and says false: a broken link at a file cohort reads was taken for no file at all, and
 * the settings in it silently left at their defaults). Read what is there with
 * {@link readFoundFile}, which names a broken link.
 *
 * @example
 * if (isPresent('cohort.config.json')) text = readFoundFile('cohort.config.json', 'configuration file');
 */
export function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The error of a symbolic link at `path` that leads nowhere (or loops), or undefined. */
function brokenLink(path: string, what: string, cause: unknown): CohortError | undefined {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    target = readlinkSync(path);
  } catch {
    return undefined;
  }
  const loops = (cause as NodeJS.ErrnoException).code === 'ELOOP';
  return new CohortError(
    'invalid_input',
    `${path}: this ${what} is a symbolic link to ${target}, which ${loops ? 'loops (links lead back to themselves)' : 'does not exist'}: fix the link or remove it.`,
    { file: path, cause },
  );
}

/**
 * Reads, as UTF-8 text, a file cohort found by itself rather than one a user named: the working
 * directory's `cohort.config.json` or `.mcp.json`, an agent's, a skill's or a subagent's markdown
 * file in a folder it searches. Only a regular file is read (through a symbolic link too): a named
 * pipe there blocked `cohort agents`, `cohort skills` and every command reading the configuration
 * for ever, waiting for a writer, and a folder gave "EISDIR: illegal operation on a directory".
 * Anything else, or a file over {@link MAX_FOUND_FILE_BYTES}, is an `invalid_input` error naming the
 * file and what it is.
 *
 * @example
 * const text = readFoundFile('agents/glossary.md', 'agent file');
 */
export function readFoundFile(path: string, what: string): string {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (cause) {
    throw brokenLink(path, what, cause) ?? cannotRead(path, what, cause);
  }
  if (!stats.isFile()) {
    throw new CohortError(
      'invalid_input',
      `${path}: this ${what} is ${otherKind(stats)}, not a file: replace it with a file or remove it.`,
      { file: path },
    );
  }
  if (stats.size > MAX_FOUND_FILE_BYTES) {
    throw new CohortError(
      'invalid_input',
      `${path}: this ${what} is ${(stats.size / 1024 / 1024).toFixed(1)} MB, over the 1 MB such a file may hold: shorten it or remove it.`,
      { file: path },
    );
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw cannotRead(path, what, cause);
  }
}

/** How {@link readNamedFile} bounds a file and names what belongs there. */
export interface NamedFileLimits {
  /** The most the file may hold, in bytes. */
  maxBytes: number;
  /** What a user should name instead, as in "name the JSON file in it" (`JSON file`). */
  fileKind: string;
  /** What to name instead of a file that is too large, as in "name a JSONL file of cases". */
  tooLargeHint: string;
}

/**
 * Reads, as UTF-8 text, a file a user named (`--config`, an evaluation set), up to
 * `limits.maxBytes`. Unlike {@link readFoundFile} it takes any kind of file that can be read to its
 * end, a pipe included (`--config <(…)`): a folder, more than `maxBytes`, or a device that never
 * ends (`/dev/zero`) is an `invalid_input` error naming the file, read no further than the bound.
 *
 * @example
 * const text = readNamedFile('eval/skills-blind.jsonl', 'skill set', {
 *   maxBytes: 64 * 1024 * 1024, fileKind: 'JSONL file', tooLargeHint: 'name a JSONL file of cases',
 * });
 */
export function readNamedFile(path: string, what: string, limits: NamedFileLimits): string {
  const isFolder = () =>
    new CohortError(
      'invalid_input',
      `${path}: this ${what} is a folder, not a file: name the ${limits.fileKind} in it.`,
      { file: path },
    );
  let handle: number | undefined;
  try {
    handle = openSync(path, 'r');
    if (fstatSync(handle).isDirectory()) throw isFolder();
    const text = readUpTo(handle, limits.maxBytes);
    if (text === undefined)
      throw new CohortError(
        'invalid_input',
        `${path}: this ${what} holds more than ${limits.maxBytes / 1024 / 1024} MB (or never ends): ${limits.tooLargeHint}.`,
        { file: path },
      );
    return text;
  } catch (cause) {
    if (cause instanceof CohortError) throw cause;
    if ((cause as NodeJS.ErrnoException).code === 'EISDIR') throw isFolder();
    throw brokenLink(path, what, cause) ?? cannotRead(path, what, cause);
  } finally {
    if (handle !== undefined) closeSync(handle);
  }
}
