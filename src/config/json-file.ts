import { CohortError } from '../errors/index.js';
import { duplicateKeyMessage, findDuplicateKey } from '../schema/index.js';

/** What a hand-written file most often has that JSON does not, by where the parser stopped. */
function hintAt(text: string, index: number): string | undefined {
  const char = text.charAt(index);
  if (char === "'") return 'JSON quotes with double quotes';
  if (char === '/') return 'JSON takes no comments';
  const previous = text.slice(0, index).trimEnd().at(-1);
  if ((char === '}' || char === ']') && previous === ',')
    return 'JSON takes no comma after the last item';
  return undefined;
}

/**
 * Why `text` is not JSON, at `path:line:column` as an editor counts them: the parser says only
 * "at position 41", a count of characters nobody can find in a file of many lines.
 */
function syntaxMessage(path: string, text: string, cause: unknown): string {
  if (text.trim() === '') return `${path}: not valid JSON: the file is empty`;
  const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\.$/, '');
  const at = / (?:in JSON )?at position (\d+)$/.exec(reason);
  if (!at) return `${path}: not valid JSON: ${reason}`;
  const index = Number(at[1]);
  const before = text.slice(0, index).split('\n');
  const line = before.length;
  const column = (before.at(-1) ?? '').length + 1;
  const hint = hintAt(text, index);
  const said = reason.slice(0, at.index);
  return `${path}:${line}:${column}: not valid JSON: ${said}${hint ? ` (${hint})` : ''}`;
}

/**
 * Reads the JSON text of a file a user writes (`cohort.config.json`, `.mcp.json`,
 * `.claude/settings.json`): not JSON (named at its line and column), or an object with a key given twice (which `JSON.parse`
 * would read as its last value, so the first setting would be dropped without a word), is an
 * `invalid_input` error naming the file and what is wrong.
 *
 * @example
 * parseJsonFile('cohort.config.json', '{"routing":{},"routing":{}}'); // throws: … gives the key "routing" twice
 */
export function parseJsonFile(path: string, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new CohortError('invalid_input', syntaxMessage(path, text, cause), {
      file: path,
      cause,
    });
  }
  const duplicate = findDuplicateKey(text, parsed);
  if (duplicate) {
    throw new CohortError(
      'invalid_input',
      `${path}: gives ${duplicateKeyMessage(duplicate)}: give each setting once (JSON would keep only the last).`,
      { file: path, field: duplicate.path ? `${duplicate.path}.${duplicate.key}` : duplicate.key },
    );
  }
  return parsed;
}
