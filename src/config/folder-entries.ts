import { readdirSync, type Dirent } from 'node:fs';

/** Decodes UTF-8 strictly: a byte that is not UTF-8 throws rather than become U+FFFD. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** One entry of a folder listed by {@link readFolderEntries}. */
export interface FolderEntry {
  /** The name; when it is not UTF-8, with each byte that is not shown as `\xNN`. */
  name: string;
  /** False when the name is not UTF-8: no string names the entry, so nothing can open it by name. */
  utf8: boolean;
  /** The entry's kind, as the listing gave it (`isFile()`, `isDirectory()`…). */
  kind: Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink'>;
}

/**
 * A file name's bytes as a person reads them: UTF-8 text as it is, every byte that is not UTF-8
 * as `\xNN` (`caf\xE9.md`, a Latin-1 'café.md').
 *
 * @example
 * showName(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // 'caf\\xE9'
 */
export function showName(bytes: Uint8Array): string {
  let shown = '';
  let start = 0;
  while (start < bytes.length) {
    // The longest run from `start` that decodes, then one byte that does not.
    let end = bytes.length;
    for (; end > start; end -= 1) {
      try {
        shown += STRICT_UTF8.decode(bytes.subarray(start, end));
        break;
      } catch {
        // shorter
      }
    }
    if (end === start) {
      shown += `\\x${(bytes[start] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
      end = start + 1;
    }
    start = end;
  }
  return shown;
}

/**
 * The entries of folder `dir`, each name decoded strictly. Node's own listing turns a name that
 * is not UTF-8 (a Latin-1 'café.md' made on another system) into one with U+FFFD, which names no
 * file: reading it said "ENOENT", as if the file were not there. Such a name comes back with
 * `utf8: false`, shown with {@link showName}, so a caller can say what is wrong with it.
 *
 * @example
 * for (const entry of readFolderEntries('agents')) if (!entry.utf8) console.warn(`${entry.name}: not UTF-8`);
 */
export function readFolderEntries(dir: string): FolderEntry[] {
  return readdirSync(dir, { withFileTypes: true, encoding: 'buffer' }).map((entry) => {
    try {
      return { name: STRICT_UTF8.decode(entry.name), utf8: true, kind: entry };
    } catch {
      return { name: showName(entry.name), utf8: false, kind: entry };
    }
  });
}

/**
 * Why a name that is not UTF-8 cannot be used, and what to do, for an error or a problem report.
 *
 * @example
 * `${path}: ${NOT_UTF8_NAME}` // 'agents/caf\\xE9.md: its name is not UTF-8 …'
 */
export const NOT_UTF8_NAME =
  'its name is not UTF-8 (\\xNN marks each byte that is not; made on a system using another encoding, such as Latin-1), and cohort reads names as UTF-8: rename it using UTF-8 only (for example with convmv -f latin1 -t utf8)';

/**
 * Why a path given on the command line, in the environment or in a setting names nothing, when it
 * holds U+FFFD; undefined when it does not. Node decodes arguments and variables as UTF-8 and puts
 * U+FFFD for every byte that is not: a folder named in Latin-1 (`caf\xE9`) arrives as a name no
 * file has. `--data-dir` then made a new folder under that other name, and `cohort ingest` said
 * the folder it was given "is not a readable folder".
 *
 * @example
 * undecodedPathProblem('caf\uFFFD'); // 'it holds U+FFFD (\uFFFD), which stands for bytes …'
 */
export function undecodedPathProblem(path: string): string | undefined {
  if (!path.includes('\uFFFD')) return undefined;
  return 'it holds U+FFFD (\uFFFD), which stands for bytes that are not UTF-8: cohort receives paths as UTF-8 text, so a name in another encoding (such as Latin-1) cannot be given; rename it using UTF-8 only (for example with convmv -f latin1 -t utf8)';
}
