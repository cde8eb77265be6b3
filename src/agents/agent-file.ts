import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  camelKey,
  camelKeys,
  createYamlCache,
  NOT_UTF8_NAME,
  parseFrontmatter,
  readFolderEntries,
  readFoundFile,
  type FolderEntry,
  type YamlCache,
} from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { defineAgent, type Agent } from './define-agent.js';

/** Keys an agent file's frontmatter may have (snake_case or camelCase). */
const KNOWN_KEYS = new Set([
  'name',
  'description',
  'title',
  'domain',
  'keywords',
  'tools',
  'model',
  'examples',
  'intents',
  'aliases',
  'answerStyle',
  'retrievalDomain',
  'fallback',
]);

/**
 * The agent files' parsed frontmatter, kept between processes: every command reads the same
 * agents, and loading the YAML parser was a tenth of a cold `cohort ask` (see yaml-cache.ts).
 */
let yamlCache: YamlCache | undefined;

/**
 * Parses an agent markdown file: YAML frontmatter (name, description, title, domain, keywords, tools,
 * model, examples, intents, aliases, answer_style, retrieval_domain, fallback) and the body as
 * system prompt.
 * A wrong field is an `invalid_input` error naming the file and the field.
 *
 * @example
 * const agent = parseAgentFile(readFileSync('agents/glossary.md', 'utf8'), 'agents/glossary.md');
 */
export function parseAgentFile(text: string, file: string): Agent {
  yamlCache ??= createYamlCache();
  const { data, body } = parseFrontmatter(text, file, { yamlCache });
  const fields = camelKeys(data);
  for (const key of Object.keys(fields)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new CohortError(
        'invalid_input',
        `${file}: ${key}: unknown field in agent frontmatter`,
        {
          file,
          field: key,
        },
      );
    }
  }
  if (typeof fields.tools === 'string') fields.tools = fields.tools.split(/[\s,]+/).filter(Boolean);
  // An error names a field as the file spells it (`answer_style`), not as the spec does.
  const names = Object.fromEntries(Object.keys(data).map((key) => [camelKey(key), key]));
  return defineAgent(
    { ...fields, systemPrompt: body.trim() } as Parameters<typeof defineAgent>[0],
    { file, names },
  );
}

/** Reads and parses one agent file. */
export function loadAgentFile(path: string): Agent {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new CohortError(
      'invalid_input',
      `Cannot read agent file ${path}: ${(cause as Error).message}`,
      {
        file: path,
        cause,
      },
    );
  }
  return parseAgentFile(text, path);
}

/** Loads every `*.md` agent file in `dir`, in name order. */
export function loadAgentDir(dir: string): Agent[] {
  const root = resolve(dir);
  let entries: FolderEntry[];
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
    entries = readFolderEntries(root).filter(
      ({ name }) => name.endsWith('.md') && name !== 'README.md',
    );
  } catch (cause) {
    throw new CohortError(
      'invalid_input',
      `Cannot read agent folder ${dir}: ${(cause as Error).message}`,
      {
        file: dir,
        cause,
      },
    );
  }
  // A name that is not UTF-8 opens nothing by its decoded name: it said "Cannot read the agent
  // file … (ENOENT)", as if the file were not there.
  const undecodable = entries.find(({ utf8 }) => !utf8);
  if (undecodable)
    throw new CohortError(
      'invalid_input',
      `Cannot read the agent file ${join(root, undecodable.name)}: ${NOT_UTF8_NAME}.`,
      { file: join(root, undecodable.name) },
    );
  // Found in the folder, not named by the user: a pipe or a folder called `x.md` is refused, not
  // read (a pipe blocked for ever).
  const names = entries.map(({ name }) => name);
  return names.sort().map((name) => {
    const path = join(root, name);
    return parseAgentFile(readFoundFile(path, 'agent file'), path);
  });
}
