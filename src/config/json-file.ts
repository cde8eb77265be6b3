import { CohortError } from '../errors/index.js';
import { duplicateKeyMessage, findDuplicateKey } from '../schema/index.js';

/**
 * Reads the JSON text of a file a user writes (`cohort.config.json`, `.mcp.json`,
 * `.claude/settings.json`): not JSON, or an object with a key given twice (which `JSON.parse`
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
    throw new CohortError('invalid_input', `${path}: not valid JSON (${String(cause)})`, {
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
