import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readFoundFile } from './found-file.js';
import { userCacheDir } from './user-cache.js';

/**
 * Parsed YAML kept between processes, for the agent files every `cohort` command reads. Loading
 * the `yaml` package and its first parse of the five built-in agents' frontmatter is 70–140 ms of
 * CPU (more on a busy machine), a tenth of a cold `cohort ask`, for the same files every time. The
 * cache file maps a hash of the `yaml` package's version and the text to the parsed value, written
 * as JSON; a hit is a JSON read. Only values JSON writes back exactly are kept (not `.inf`, say),
 * entries are few (the oldest go past {@link MAX_ENTRIES}), and whatever reads the value validates
 * it as it would a fresh parse (the agent schema). A cache that cannot be read or written is
 * passed over: the text is parsed as before.
 */
export const YAML_CACHE_FILE = 'parsed-yaml.json';

/** Entries kept: many times the agent files of a project, and the file stays a few KB. */
const MAX_ENTRIES = 64;

/** Bumped when the file's layout changes: other layouts are not read. */
const FORMAT = 1;

const require = createRequire(import.meta.url);

/** A parse cache over one folder (see {@link YAML_CACHE_FILE}). */
export interface YamlCache {
  /** `text` parsed: the cached value when one is kept for it, else `parse(text)`, then kept. */
  parse(text: string, parse: (text: string) => unknown): unknown;
}

/**
 * The parse cache kept in `dir` (default: the user cache folder), read on its first use.
 *
 * @example
 * const value = createYamlCache().parse(yamlText, (text) => YAML.parse(text));
 */
export function createYamlCache(dir: string = userCacheDir()): YamlCache {
  let entries: Map<string, unknown> | undefined;
  let version: string | undefined;
  // The new entries of one synchronous run (a registry parses all its agent files in one) are
  // written once, after it: a project with more agent files than entries wrote the file per file.
  let writing = false;
  const save = () => {
    if (writing) return;
    writing = true;
    queueMicrotask(() => {
      writing = false;
      if (entries) writeEntries(dir, file, entries);
    });
  };
  const file = join(dir, YAML_CACHE_FILE);
  const keyOf = (text: string) => {
    version ??= yamlVersion();
    return createHash('sha256').update(`${version}\0${text}`).digest('hex').slice(0, 32);
  };
  return {
    parse(text, parse) {
      entries ??= readEntries(file);
      const key = keyOf(text);
      if (entries.has(key)) return structuredClone(entries.get(key));
      const value = parse(text);
      if (!writesBackExactly(value)) return value;
      entries.set(key, value);
      for (const oldest of entries.keys()) {
        if (entries.size <= MAX_ENTRIES) break;
        entries.delete(oldest);
      }
      save();
      return structuredClone(value);
    },
  };
}

function yamlVersion(): string {
  try {
    return (require('yaml/package.json') as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const writesBackExactly = (value: unknown): boolean => {
  try {
    return isDeepStrictEqual(JSON.parse(JSON.stringify(value) ?? 'null'), value);
  } catch {
    return false;
  }
};

function readEntries(file: string): Map<string, unknown> {
  try {
    // A regular file of at most 1 MB (readFoundFile): a named pipe there would block every command.
    const saved = JSON.parse(readFoundFile(file, 'parsed-YAML cache')) as {
      format?: unknown;
      entries?: unknown;
    };
    if (saved?.format !== FORMAT || typeof saved.entries !== 'object' || saved.entries === null)
      return new Map();
    return new Map(Object.entries(saved.entries));
  } catch {
    return new Map();
  }
}

/** Written whole under a new name, then renamed over the old: a reader sees one or the other. */
function writeEntries(dir: string, file: string, entries: Map<string, unknown>): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      temporary,
      JSON.stringify({ format: FORMAT, entries: Object.fromEntries(entries) }),
    );
    renameSync(temporary, file);
  } catch {
    // A read-only home or a full disk: the next process parses again.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Its folder is not there: nothing was written.
    }
  }
}
