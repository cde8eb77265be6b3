import type { AgentRegistry } from '../agents/index.js';
import type { RouteResult } from '../schema/index.js';
import type { Router } from '../routing/index.js';

/** The reason every question carries while the router is switched off. */
export const ROUTING_OFF_REASON =
  'Routing is switched off (routing.enabled = false): every question goes to the default agent.';

/**
 * The rollout switch of book-subagents-research.md R7: a router that sends every question to the
 * registry's default agent, so an assistant can run as the plain book agent (gradual roll-out, or
 * answers compared with and without routing). An explicit agent choice still goes through `router`,
 * which checks the name.
 *
 * @example
 * const router = config.routing.enabled ? realRouter : routeEverythingToDefault(registry, realRouter);
 */
export function routeEverythingToDefault(
  registry: AgentRegistry,
  router: Pick<Router, 'route'>,
): Pick<Router, 'route'> {
  return {
    route(query, options): RouteResult {
      if (options?.agent) return router.route(query, options);
      return {
        primaryAgent: registry.defaultAgent.name,
        secondaryAgents: [],
        confidence: 1,
        routingReason: ROUTING_OFF_REASON,
        isMultiDomain: false,
        phase: 'fallback',
        scores: {},
      };
    },
  };
}
