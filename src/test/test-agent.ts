import { defineAgent, type Agent } from '../agents/define-agent.js';

/**
 * A valid agent for tests: name and domain `name`, three made-up keywords, a grounded prompt.
 *
 * @example
 * const registry = new AgentRegistry([testAgent('glossary'), testAgent('book', { fallback: true })]);
 */
export function testAgent(name: string, extra: Record<string, unknown> = {}): Agent {
  return defineAgent({
    name,
    domain: name,
    description: `${name} agent`,
    keywords: [`${name}1`, `${name}2`, `${name}3`],
    systemPrompt: 'Answer only from the book passages you retrieve.',
    ...extra,
  });
}
