import type { SourceType, VisitedSource } from '../schema/index.js';

/**
 * The visited sources shared by every subagent of a run. `claim` is check-and-set in one step,
 * so when two parallel subagents meet the same URL only the first may fetch it.
 */
export interface VisitedRegistry {
  /** Marks the source visited; true when this caller claimed it first, false when it was taken. */
  claim(source: VisitedSource): boolean;
  has(source: Pick<VisitedSource, 'identifier'>): boolean;
  /** Every visited source, in claim order. */
  list(): VisitedSource[];
}

/** Same page, different spelling: scheme, `www.`, trailing slash, fragment and case of host. */
export function sourceKey(identifier: string): string {
  try {
    const url = new URL(identifier);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return identifier;
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const path = url.pathname.replace(/\/+$/, '');
    return `${host}${path}${url.search}`;
  } catch {
    return identifier;
  }
}

/**
 * Creates a registry seeded with `initial` (the visited sources a run resumes with).
 *
 * @example
 * const registry = createVisitedRegistry();
 * registry.claim({ identifier: 'https://a.org/x', sourceType: 'web' }); // true
 * registry.claim({ identifier: 'https://a.org/x/', sourceType: 'web' }); // false
 */
export function createVisitedRegistry(initial: readonly VisitedSource[] = []): VisitedRegistry {
  const seen = new Map<string, VisitedSource>();
  const registry: VisitedRegistry = {
    claim(source) {
      const key = sourceKey(source.identifier);
      if (seen.has(key)) return false;
      seen.set(key, { identifier: source.identifier, sourceType: source.sourceType });
      return true;
    },
    has: (source) => seen.has(sourceKey(source.identifier)),
    list: () => [...seen.values()],
  };
  for (const source of initial) registry.claim(source);
  return registry;
}

/** A visited-source record for `identifier`. */
export const visited = (identifier: string, sourceType: SourceType): VisitedSource => ({
  identifier,
  sourceType,
});
