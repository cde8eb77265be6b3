import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCohortError } from '../errors/index.js';
import { namedPipe } from '../test/named-pipe.js';
import { packagePath } from '../config/index.js';
import { agentTitle, AgentRegistry, defineAgent, loadAgentDir, parseAgentFile } from './index.js';

const spec = {
  name: 'recipes',
  domain: 'cooking',
  description: 'Answers questions about the recipes in the book.',
  keywords: ['recipe', 'bake', 'oven'],
  systemPrompt: 'Answer only from the book passages you retrieve, and cite them.',
};

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isCohortError(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
};

describe('defineAgent enforces the BaseAgent rules', () => {
  it('accepts a valid spec with defaults', () => {
    const agent = defineAgent(spec);
    expect(agent.tools).toEqual(['search_book_content']);
    expect(agent.model).toBe('full');
  });

  it('takes the book search, MCP tools and no tools at all', () => {
    const tools = ['search_book_content', 'mcp__github', 'mcp__github__search', 'mcp__*'];
    expect(defineAgent({ ...spec, tools }).tools).toEqual(tools);
    expect(defineAgent({ ...spec, tools: [] }).tools).toEqual([]);
  });

  it.each([
    [{ name: 'Recipes' }, 'name', 'lowercase letters, digits and underscores'],
    [{ name: 'my-agent' }, 'name', 'lowercase letters, digits and underscores'],
    [{ keywords: ['a', 'b'] }, 'keywords', 'at least 3'],
    [{ description: ' ' }, 'description', 'must not be empty'],
    [{ domain: '' }, 'domain', 'must not be empty'],
    [{ systemPrompt: 'You are a cheerful chef.' }, 'systemPrompt', 'keep to the book content'],
    // Found by an outside tester: a misspelt tool was dropped without a word, and the agent
    // answered with no book search to call.
    [{ tools: ['search_book'] }, 'tools.0', 'name search_book_content or an MCP tool'],
    [{ tools: ['search_book_content', 'web_search'] }, 'tools.1', '"web_search" is no tool'],
  ])('%j is refused naming %s', (override, field, reason) => {
    const error = errorOf(() => defineAgent({ ...spec, ...override }));
    expect(error.code).toBe('invalid_input');
    expect(error.field).toBe(field);
    expect(error.message).toContain(reason);
  });
});

describe('agentTitle', () => {
  it("is the agent's title, else its name with underscores read as spaces", () => {
    expect(agentTitle(defineAgent({ ...spec, title: 'Recipes and baking' }))).toBe(
      'Recipes and baking',
    );
    expect(agentTitle(defineAgent({ ...spec, name: 'module_info' }))).toBe('module info');
  });

  it('is a title for every bundled agent, never its id', () => {
    for (const agent of loadAgentDir(packagePath('agents')))
      expect(agent.title, agent.name).toMatch(/^[A-Z][a-z]+(?: [a-z]+)*$/);
  });
});

describe('agent markdown files', () => {
  it("no bundled agent's prompt asks the model for a Sources list (the grounding prompt's rule 5)", () => {
    // The prompts said "end with a Sources list" under a grounding prompt that says cohort
    // appends one: a model that obeyed the agent answered with two Sources lists.
    for (const agent of loadAgentDir(packagePath('agents')))
      expect(agent.systemPrompt, agent.name).not.toMatch(/\b(end|ending) with a Sources list/i);
  });

  it('reads frontmatter fields and the body as the system prompt', () => {
    const agent = parseAgentFile(
      '---\nname: recipes\ndescription: Recipes\ntitle: Recipes and baking\ndomain: cooking\nkeywords: [recipe, bake, oven]\ntools: search_book_content\nmodel: fast\nanswer_style: definition\nexamples:\n  - how long do I bake bread\n---\nAnswer only from the book.\n',
      'recipes.md',
    );
    expect(agent).toMatchObject({
      name: 'recipes',
      title: 'Recipes and baking',
      model: 'fast',
      answerStyle: 'definition',
      tools: ['search_book_content'],
      file: 'recipes.md',
    });
    expect(agent.systemPrompt).toBe('Answer only from the book.');
    expect(agent.examples).toEqual(['how long do I bake bread']);
  });

  it.each([
    ['---\nname: x\n  bad: [\n---\nbody', 'invalid YAML frontmatter'],
    [
      '---\nname: recipes\ndescription: R\ndomain: c\nkeywords: [a, b, c]\ncolour: red\n---\nFrom the book.',
      'colour: unknown field',
    ],
    [
      '---\nname: recipes\ndescription: R\ndomain: c\nkeywords: [a, b]\n---\nFrom the book.',
      'keywords',
    ],
  ])('a malformed file names the file and the field (%#)', (text, reason) => {
    const error = errorOf(() => parseAgentFile(text, 'agents/bad.md'));
    expect(error.message).toContain('agents/bad.md');
    expect(error.message).toContain(reason);
  });

  it("words a refused field in cohort's terms, named as the file spells it", () => {
    // `answer_style: poem` said "answerStyle: Invalid option: expected one of …", a key the file
    // does not have, and `model: 5` "Invalid input: expected string, received number".
    const file = (fields: string) =>
      `---\nname: recipes\ndescription: R\ndomain: c\nkeywords: [a, b, c]\n${fields}\n---\nFrom the book.`;
    expect(errorOf(() => parseAgentFile(file('answer_style: poem'), 'a.md')).message).toBe(
      'a.md: answer_style must be one of "definition", "specs", "explanation", "guidance", "general", not "poem"',
    );
    expect(errorOf(() => parseAgentFile(file('model: 5'), 'a.md')).message).toBe(
      'a.md: model must be text, not 5',
    );
    expect(errorOf(() => parseAgentFile(file('fallback: maybe'), 'a.md')).message).toBe(
      'a.md: fallback must be true or false, not "maybe"',
    );
  });

  it('loads a folder of agent files, adding an agent by adding a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-agent-dir-'));
    writeFileSync(
      join(dir, 'recipes.md'),
      '---\nname: recipes\ndescription: R\ndomain: c\nkeywords: [a, b, c]\n---\nFrom the book.',
    );
    writeFileSync(join(dir, 'README.md'), 'not an agent');
    expect(loadAgentDir(dir).map((a) => a.name)).toEqual(['recipes']);
    expect(errorOf(() => loadAgentDir(join(dir, 'missing'))).message).toContain(
      'Cannot read agent folder',
    );
  });

  it('names an agent file that is a named pipe or a folder instead of blocking on it', () => {
    // A FIFO among the agent files made `cohort agents` wait for a writer for ever.
    const dir = mkdtempSync(join(tmpdir(), 'cohort-agent-dir-'));
    const stop = namedPipe(join(dir, 'pipe.md'), '---\nname: piped\n---\nbody');
    try {
      const error = errorOf(() => loadAgentDir(dir));
      expect(isCohortError(error, 'invalid_input')).toBe(true);
      expect(error.message).toBe(
        `${join(dir, 'pipe.md')}: this agent file is a named pipe (FIFO), not a file: replace it with a file or remove it.`,
      );
    } finally {
      stop();
    }
    const folder = mkdtempSync(join(tmpdir(), 'cohort-agent-dir-'));
    mkdirSync(join(folder, 'nested.md'));
    expect(errorOf(() => loadAgentDir(folder)).message).toContain(
      'this agent file is a folder, not a file',
    );
  });

  it('names an agent file whose name is not UTF-8, instead of saying it cannot be found', () => {
    // A Latin-1 'café.md' said "Cannot read the agent file …/caf\uFFFD.md (ENOENT)".
    const dir = mkdtempSync(join(tmpdir(), 'cohort-agent-dir-'));
    const agent = '---\nname: cafe\ndescription: C\ndomain: c\nkeywords: [a, b, c]\n---\nBody.';
    writeFileSync(
      Buffer.concat([Buffer.from(join(dir, 'caf')), Buffer.from([0xe9, 0x2e, 0x6d, 0x64])]),
      agent,
    );
    const error = errorOf(() => loadAgentDir(dir));
    expect(isCohortError(error, 'invalid_input')).toBe(true);
    expect(error.message).toMatch(
      `Cannot read the agent file ${join(dir, 'caf\\xE9.md')}: its name is not UTF-8 (\\xNN marks each byte that is not;`,
    );
    expect(error.message).toContain('rename it using UTF-8 only');
    expect(error.message).not.toContain('ENOENT');
  });
});

describe('AgentRegistry', () => {
  const book = defineAgent({ ...spec, name: 'book', fallback: true });
  const recipes = defineAgent(spec);

  it('registers, gets, lists and unregisters agents', () => {
    const registry = new AgentRegistry([book, recipes]);
    expect(registry.get('recipes')).toBe(recipes);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.all().map((a) => a.name)).toEqual(['book', 'recipes']);
    expect(registry.defaultAgent.name).toBe('book');
    expect(registry.unregister('recipes')).toBe(true);
    expect(registry.unregister('recipes')).toBe(false);
    expect(registry.summaries()).toEqual([
      { name: 'book', domain: 'cooking', description: spec.description, keywords: spec.keywords },
    ]);
  });

  it('refuses duplicates, an unregistered default, an empty registry and removing the default', () => {
    expect(errorOf(() => new AgentRegistry([book, book])).message).toContain('already registered');
    expect(errorOf(() => new AgentRegistry([recipes], { defaultAgent: 'book' })).message).toContain(
      'Unknown default agent "book"',
    );
    expect(errorOf(() => new AgentRegistry([])).message).toContain('at least one agent');
    expect(errorOf(() => new AgentRegistry([book]).unregister('book')).code).toBe('conflict');
    expect(errorOf(() => new AgentRegistry([book]).require('chef')).code).toBe('not_found');
  });

  it('refuses two agents marked fallback, naming them, unless the default is given', () => {
    // Found by an outside tester: the first file read won, without a word.
    const other = defineAgent({ ...spec, name: 'other', fallback: true }, { file: '/a/other.md' });
    const error = errorOf(() => new AgentRegistry([book, recipes, other]));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('"book" and "other" (/a/other.md) are both marked');
    expect(new AgentRegistry([book, other], { defaultAgent: 'other' }).defaultAgent.name).toBe(
      'other',
    );
  });
});
