/**
 * A few values by name (an arbiter's agents, phases, domains), found by scanning the names rather
 * than by hashing into a map: each name is a handful of entries side by side, and once a name is
 * found, the table keeps the caller's own string for it, so that the next lookup with that string
 * (the registry's agent names, the phases the rules write) is a comparison of references. A map's
 * lookup reads the map, its hash table and both strings, each a trip to memory in the server,
 * where the rest of the work evicts them between routes.
 *
 * @example
 * const table = new NameTable(new Map([['glossary', 0], ['hardware', 5]]));
 * table.get('hardware'); // 5
 * table.get('book'); // undefined
 */
export class NameTable<T> {
  private readonly names: string[];
  private readonly values: T[];

  constructor(entries: ReadonlyMap<string, T>) {
    this.names = [...entries.keys()];
    this.values = [...entries.values()];
  }

  /** The value named `name`, or undefined. */
  get(name: string): T | undefined {
    const names = this.names;
    for (let i = 0; i < names.length; i += 1) {
      const held = names[i]!;
      if (held !== name) continue;
      // The same characters: keep the caller's string, compared by reference from now on.
      names[i] = name;
      return this.values[i];
    }
    return undefined;
  }

  /** How many names it holds. */
  get size(): number {
    return this.names.length;
  }
}
