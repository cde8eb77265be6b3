import { CohortError } from '../errors/index.js';
import type { AgentSummary } from '../schema/index.js';
import type { Agent } from './define-agent.js';

/**
 * The agents an assistant can route to (data-model spec, AgentRegistry). Names are unique; the
 * default (fallback) agent must be registered and cannot be removed while it is the default.
 *
 * @example
 * const registry = new AgentRegistry([glossary, book], { defaultAgent: 'book' });
 * registry.get('glossary');
 */
export class AgentRegistry {
  readonly #agents = new Map<string, Agent>();
  #defaultAgent: string;
  #version = 0;

  constructor(agents: Iterable<Agent>, options: { defaultAgent?: string } = {}) {
    for (const agent of agents) this.register(agent);
    if (this.#agents.size === 0) {
      throw new CohortError('invalid_input', 'An agent registry needs at least one agent.');
    }
    const fallback = [...this.#agents.values()].filter((agent) => agent.fallback);
    // Two `fallback: true` agents left the first file read to win, without a word.
    if (options.defaultAgent === undefined && fallback.length > 1) {
      const named = fallback.map(
        (agent) => `"${agent.name}"${agent.file ? ` (${agent.file})` : ''}`,
      );
      throw new CohortError(
        'invalid_input',
        `${named.slice(0, -1).join(', ')} and ${named.at(-1)} are ${fallback.length === 2 ? 'both' : 'all'} marked \`fallback: true\`: mark only the agent that answers what no other covers.`,
        { field: 'fallback' },
      );
    }
    const name =
      options.defaultAgent ?? fallback[0]?.name ?? (this.#agents.has('book') ? 'book' : undefined);
    if (!name) {
      throw new CohortError(
        'invalid_input',
        'No default agent: mark one agent `fallback: true` or pass `defaultAgent`.',
      );
    }
    this.#defaultAgent = name;
    this.#require(name, 'default agent');
  }

  /** Adds an agent; a second agent with the same name is refused. */
  register(agent: Agent): void {
    const existing = this.#agents.get(agent.name);
    if (existing) {
      const where = [existing.file, agent.file].filter(Boolean).join(' and ');
      throw new CohortError(
        'conflict',
        `An agent named "${agent.name}" is already registered${where ? ` (${where})` : ''}: agent names must be unique.`,
        { field: 'name', file: agent.file },
      );
    }
    this.#agents.set(agent.name, agent);
    this.#version += 1;
  }

  /** Removes an agent; the default agent and the last agent cannot be removed. */
  unregister(name: string): boolean {
    if (!this.#agents.has(name)) return false;
    if (name === this.#defaultAgent) {
      throw new CohortError(
        'conflict',
        `"${name}" is the default agent and cannot be unregistered.`,
      );
    }
    this.#version += 1;
    return this.#agents.delete(name);
  }

  /** Changes whenever an agent is registered or removed, so derived state (a router) can rebuild. */
  get version(): number {
    return this.#version;
  }

  /** The agent named `name`, or undefined. */
  get(name: string): Agent | undefined {
    return this.#agents.get(name);
  }

  /** The agent named `name`, or a `not_found` error listing the known names. */
  require(name: string): Agent {
    return this.#require(name, 'agent');
  }

  /** Every registered agent, in registration order. */
  all(): Agent[] {
    return [...this.#agents.values()];
  }

  /** The fallback agent. */
  get defaultAgent(): Agent {
    return this.#require(this.#defaultAgent, 'default agent');
  }

  /** Summaries for listings (`/agents`). */
  summaries(): AgentSummary[] {
    return this.all().map(({ name, domain, description, keywords }) => ({
      name,
      domain,
      description,
      keywords,
    }));
  }

  #require(name: string, what: string): Agent {
    const agent = this.#agents.get(name);
    if (!agent) {
      throw new CohortError(
        'not_found',
        `Unknown ${what} "${name}". Registered agents: ${[...this.#agents.keys()].join(', ')}.`,
        { field: 'agent' },
      );
    }
    return agent;
  }
}
