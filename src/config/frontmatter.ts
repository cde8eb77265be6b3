import { createRequire } from 'node:module';

import { CohortError } from '../errors/index.js';
import { findJsonProblem } from '../schema/index.js';
import type { YamlCache } from './yaml-cache.js';

const require = createRequire(import.meta.url);
/**
 * YAML's parser, loaded with the first file that has frontmatter (not by `import('cohort')`). Its
 * warnings (an unknown tag such as `!foo`, read as the plain value) are not printed: by default
 * they go to `process.emitWarning`, a Node warning on stderr in the middle of cohort's output.
 */
const parseYaml = (text: string): unknown =>
  (require('yaml') as typeof import('yaml')).parse(text, { logLevel: 'error' });

/** A markdown file split into its YAML frontmatter and body. */
export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * The longest frontmatter read, in characters: twenty times the largest of cohort's agents and
 * skills. The YAML parser takes time and memory per line well beyond the text's own (a 7 MB
 * document, under ingestion's 8 MB per file, whose frontmatter was 1.4 million short lines took
 * 44 s and 3.6 GB), and a frontmatter comes with a document or a cloned repository's skill.
 */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

/**
 * `:3:6`, where in the file the YAML parser stopped: it counts lines from the frontmatter's first,
 * one after the opening `---`. Empty when the parser gave no place.
 */
function fileLine(cause: unknown): string {
  const at = (cause as { linePos?: ReadonlyArray<{ line?: unknown; col?: unknown }> } | null)
    ?.linePos?.[0];
  return typeof at?.line === 'number' && typeof at.col === 'number'
    ? `:${at.line + 1}:${at.col}`
    : '';
}

/**
 * Splits `text` into YAML frontmatter (between `---` fences at the top) and body. A file with no
 * frontmatter has empty `data`. Malformed YAML is an `invalid_input` error naming `file` (a
 * `yamlCache` keeps only what parsed, so the error is the parser's every time).
 *
 * @example
 * const { data, body } = parseFrontmatter('---\nname: glossary\n---\nYou define terms.');
 */
export function parseFrontmatter(
  text: string,
  file?: string,
  options: {
    /** Where the parsed YAML of files read by every command is kept (see yaml-cache.ts). */
    yamlCache?: YamlCache;
  } = {},
): Frontmatter {
  const source = text.replace(/^\uFEFF/, '');
  const match = FENCE.exec(source);
  if (!match) return { data: {}, body: source };
  const yaml = match[1] ?? '';
  if (yaml.length > MAX_FRONTMATTER_CHARS)
    throw new CohortError(
      'invalid_input',
      `${file ?? 'frontmatter'}: the frontmatter is ${Math.round(yaml.length / 1024)} KB, over the ${MAX_FRONTMATTER_CHARS / 1024} KB a frontmatter may hold: keep it to a few settings.`,
      { file },
    );
  let data: unknown;
  try {
    data = (options.yamlCache ? options.yamlCache.parse(yaml, parseYaml) : parseYaml(yaml)) ?? {};
  } catch (cause) {
    // The parser recurses per level: a frontmatter nested thousands deep overflows the stack,
    // which is no message for a user ("Maximum call stack size exceeded at line 1, column …").
    const overflow = cause instanceof RangeError || /call stack/i.test(String(cause));
    const reason = overflow
      ? 'nested too deeply: a frontmatter holds a few flat settings'
      : cause instanceof Error
        ? (cause.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
        : String(cause);
    throw new CohortError(
      'invalid_input',
      `${file ?? 'frontmatter'}${overflow ? '' : fileLine(cause)}: invalid YAML frontmatter (${reason})`,
      {
        file,
        cause,
      },
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CohortError(
      'invalid_input',
      `${file ?? 'frontmatter'}: frontmatter must be a YAML mapping`,
      {
        file,
      },
    );
  }
  // YAML's "\0" and "\ud800" escapes make from valid UTF-8 a string no database can hold.
  const problem = findJsonProblem(data);
  if (problem?.kind === 'unsafe_text') {
    throw new CohortError(
      'invalid_input',
      `${file ?? 'frontmatter'}: frontmatter ${problem.path} holds ${problem.found} (YAML escapes such as "\\0" included)`,
      { file },
    );
  }
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length) };
}

/** A `snake_case` or `kebab-case` frontmatter key in camelCase, as the spec names the field. */
export const camelKey = (key: string): string =>
  key.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Converts `snake_case` and `kebab-case` keys to camelCase (frontmatter keys to spec fields). */
export function camelKeys(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[camelKey(key)] = value;
  return out;
}
