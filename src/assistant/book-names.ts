import type { Agent } from '../agents/index.js';

/** One name users give an agent's subject, and the name the book gives it (the agent's domain). */
export interface BookName {
  alias: string;
  name: string;
  /** The alias as whole words, any case, its words apart by spaces or hyphens. */
  pattern: RegExp;
}

/**
 * The agents' `aliases`, each mapped onto its agent's domain ("final project" → "capstone"). An
 * alias is words of letters and digits (the agent schema checks it), so its words need no escaping.
 *
 * @example
 * bookNames(registry.all()); // [{ alias: 'final project', name: 'capstone', … }]
 */
export function bookNames(agents: ReadonlyArray<Pick<Agent, 'domain' | 'aliases'>>): BookName[] {
  const names: BookName[] = [];
  for (const agent of agents)
    for (const alias of agent.aliases) {
      const words = alias
        .toLowerCase()
        .split(/[\s-]+/)
        .filter(Boolean);
      if (words.length === 0 || words.join(' ') === agent.domain.toLowerCase()) continue;
      names.push({
        alias: words.join(' '),
        name: agent.domain,
        pattern: new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s-]+')}(?![\\p{L}\\p{N}])`, 'giu'),
      });
    }
  return names;
}

/**
 * `question` with each alias the book never writes replaced by the book's name for it, and the
 * pairs read that way. `bookWrites` says whether the book uses an alias itself (then it is left:
 * the book's passages name the subject that way).
 *
 * @example
 * await inBookNames('When is the final project due?', names, bookWrites);
 * // { text: 'When is the capstone due?', read: [['final project', 'capstone']] }
 */
export async function inBookNames(
  question: string,
  names: readonly BookName[],
  bookWrites: (alias: string) => Promise<boolean>,
): Promise<{ text: string; read: Array<[alias: string, name: string]> }> {
  let text = question;
  const read: Array<[string, string]> = [];
  for (const { alias, name, pattern } of names) {
    pattern.lastIndex = 0;
    if (!pattern.test(text) || (await bookWrites(alias))) continue;
    text = text.replace(pattern, name);
    read.push([alias, name]);
  }
  return { text, read };
}
