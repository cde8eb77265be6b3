import * as z from 'zod';
import { OffTopicSubject, Query } from './context.js';
import { lazySchema } from './lazy-schema.js';

/** Which routing phase decided. */
export const RoutingPhase = lazySchema(() => z.enum(['keyword', 'intent', 'fallback', 'explicit']));
export type RoutingPhase = z.infer<typeof RoutingPhase>;

/** A routing decision (data-model spec), with the reason a reader can check. */
export const RouteResult = lazySchema(() =>
  z.object({
    primaryAgent: z.string().min(1),
    secondaryAgents: z.array(z.string()).default([]),
    confidence: z.number().min(0).max(1),
    routingReason: z.string().trim().min(1, 'routing_reason must not be empty'),
    isMultiDomain: z.boolean(),
    phase: RoutingPhase,
    /** Per-agent scores of the deciding phase, for inspection. */
    scores: z.record(z.string(), z.number()).default({}),
    /** The intent label when phase 2 ran. */
    intent: z.string().optional(),
    /**
     * When the subject check sent the question to the fallback agent: its subject words (content
     * words that are not its form) and those of them the book does not cover. The agent says the book
     * does not cover them instead of quoting passages that share only the question's form.
     */
    offTopic: OffTopicSubject.optional(),
    /**
     * Words of the question the router read as other words (`["topci", "topic"]`, lower case), as
     * its reason says: the agent retrieves and chooses sentences with the question as read, so a
     * slip routed right is also answered.
     */
    readAs: z.array(z.tuple([z.string(), z.string()])).optional(),
    /**
     * What each secondary agent of a multi-part question is asked: the text of its own ask ("how
     * long is the course" of "What is a costmap, and how long is the course?"), with the subject
     * of the ask before it when it points back at it ("how much power does it draw Jetson Orin").
     * An agent answers its own ask rather than the whole question.
     */
    secondaryAsks: z.record(z.string(), z.string()).optional(),
    /**
     * With secondary agents: what the primary agent is asked, the question without the asks they
     * answer ("What is a topic" of "What is a topic, and who is this book for?").
     */
    primaryAsk: z.string().optional(),
    /**
     * A secondary agent asked something the book does not cover ("what's the price of gold today"
     * of "Which sensors should we buy, and what's the price of gold today?"): the subject check's
     * verdict on its ask, by agent. That agent says the book does not cover it.
     */
    secondaryOffTopic: z.record(z.string(), OffTopicSubject).optional(),
  }),
);
export type RouteResult = z.infer<typeof RouteResult>;

/** Body of `POST /route`. */
export const RouteRequest = lazySchema(() => z.object({ query: Query }));
export type RouteRequest = z.infer<typeof RouteRequest>;

/** Response of `POST /route`. */
export const RouteResponse = lazySchema(() =>
  z.object({
    primaryAgent: z.string(),
    secondaryAgents: z.array(z.string()),
    confidence: z.number().min(0).max(1),
    reason: z.string(),
    isMultiDomain: z.boolean(),
    phase: RoutingPhase,
  }),
);
export type RouteResponse = z.infer<typeof RouteResponse>;

/**
 * The `/route` answer (and the `route` SSE event, the MCP `route` tool) for a routing decision.
 *
 * @example
 * toWire(routeResponse(router.route('What is a topic?')));
 */
export function routeResponse(route: RouteResult): RouteResponse {
  return {
    primaryAgent: route.primaryAgent,
    secondaryAgents: route.secondaryAgents,
    confidence: route.confidence,
    reason: route.routingReason,
    isMultiDomain: route.isMultiDomain,
    phase: route.phase,
  };
}
