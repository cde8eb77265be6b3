import { parseInput } from '../errors/index.js';
import {
  AgentSpec,
  type AgentContext,
  type AgentResponse,
  type AgentSpecInput,
} from '../schema/index.js';
import type { AgentDependencies } from './dependencies.js';

/** A custom way for an agent to answer; most agents only declare and use the default runner. */
export type AgentRunOverride = (
  context: AgentContext,
  dependencies: AgentDependencies,
) => Promise<AgentResponse>;

/** A validated agent: its spec, plus an optional run override. */
export type Agent = AgentSpec & { readonly run?: AgentRunOverride; readonly file?: string };

/**
 * Validates an agent spec against the BaseAgent rules (name pattern, at least 3 keywords, a
 * prompt that keeps to the book, description, domain) and returns the agent.
 *
 * @example
 * const chef = defineAgent({
 *   name: 'recipes',
 *   domain: 'cooking',
 *   description: 'Answers questions about the recipes in the book.',
 *   keywords: ['recipe', 'bake', 'oven'],
 *   systemPrompt: 'Answer only from the book passages you retrieve.',
 * });
 */
export function defineAgent(
  spec: AgentSpecInput & { run?: AgentRunOverride },
  options: {
    file?: string;
    /** The keys the file wrote (`answer_style`) by the spec's (`answerStyle`), for its errors. */
    names?: Readonly<Record<string, string>>;
  } = {},
): Agent {
  const { run, ...declared } = spec;
  const parsed: AgentSpec = parseInput(AgentSpec, declared, {
    file: options.file,
    ...(options.names ? { names: options.names } : {}),
    prefix: options.file ? undefined : `Invalid agent "${String(declared.name ?? '?')}": `,
  });
  return { ...parsed, ...(run ? { run } : {}), ...(options.file ? { file: options.file } : {}) };
}

/**
 * The name a reader sees for an agent: its `title`, else its `name` with underscores read as
 * spaces. Answers show it, never the id ("**module_info**" read as a code word to a student).
 *
 * @example
 * agentTitle({ name: 'module_info', title: 'Course modules' }); // 'Course modules'
 * agentTitle({ name: 'lab_safety' }); // 'lab safety'
 */
export function agentTitle(agent: Pick<Agent, 'name' | 'title'>): string {
  return agent.title ?? agent.name.replace(/_/g, ' ');
}
