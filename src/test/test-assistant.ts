import {
  AgentRegistry,
  createExtractiveRunner,
  createRagSkill,
  type AgentRunner,
} from '../agents/index.js';
import { testAgent } from './test-agent.js';
import { createAssistant, type Assistant, type TraceSink } from '../assistant/index.js';
import type { Router } from '../routing/index.js';
import { CohortError } from '../errors/index.js';
import type { RetrievedChunk, RouteResult } from '../schema/index.js';
import { createContextSkill } from '../assistant/index.js';
import type { Db, Store } from '../store/index.js';
import type { WebAssets } from '../server/web-assets.js';
import { readSseEvents, type SseEvent } from '../server/web/sse-parser.js';

// Test support for the server's tests: a small extractive assistant over fake routing and
// retrieval, so the API is tested without the book, and helpers to read responses.

const agent = testAgent;

/** The one passage the fake retrieval knows. */
export const TOPIC: RetrievedChunk = {
  id: 'topics-1',
  text: 'A topic is a named channel over which nodes publish and subscribe to messages. Topics carry data between nodes.',
  source: 'docs/ros2/topics.md',
  title: 'Topics',
  section: 'Communication',
  score: 0.9,
  domain: 'glossary',
  metadata: {},
};

/** glossary, hardware and the fallback book agent. */
export const registry = new AgentRegistry([
  agent('glossary', { answerStyle: 'definition', retrievalDomain: 'glossary' }),
  agent('hardware', { retrievalDomain: 'hardware' }),
  agent('book', { fallback: true }),
]);

/** Routes "topic" questions to glossary, the rest to book; `agent` forces a choice. */
export const router: Pick<Router, 'route'> = {
  route: (query, options) => {
    const name = options?.agent ?? (/topic/i.test(query) ? 'glossary' : 'book');
    registry.require(name);
    const route: RouteResult = {
      primaryAgent: name,
      secondaryAgents: [],
      confidence: name === 'book' ? 0.3 : 0.9,
      routingReason: name === 'book' ? 'no keyword matched' : 'keyword "topic"',
      isMultiDomain: false,
      phase: options?.agent ? 'explicit' : name === 'book' ? 'fallback' : 'keyword',
      scores: {},
    };
    return route;
  },
};

const fakeRag = (beforeRetrieve?: () => Promise<void>) =>
  createRagSkill({
    retrieve: async (query) => {
      await beforeRetrieve?.();
      if (/outage/.test(query)) throw new CohortError('retrieval_unavailable', 'index down');
      if (/explode/.test(query)) throw new Error('unexpected failure inside retrieval');
      return /topic|hardware/i.test(query) ? [TOPIC] : [];
    },
  });

/** A Db that can be switched off, to see the API report an unreachable store. */
export function switchableDb(db: Db): Db & { down: boolean } {
  const wrapped = {
    down: false,
    engine: db.engine,
    query: <Row>(sql: string, params?: unknown[]) =>
      wrapped.down ? Promise.reject(new Error('connect ECONNREFUSED')) : db.query<Row>(sql, params),
    exec: (sql: string) =>
      wrapped.down ? Promise.reject(new Error('connect ECONNREFUSED')) : db.exec(sql),
    transaction: <T>(fn: (tx: Db) => Promise<T>) =>
      wrapped.down ? Promise.reject(new Error('connect ECONNREFUSED')) : db.transaction(fn),
    close: () => db.close(),
  };
  return wrapped;
}

/**
 * An extractive assistant over the fake router and retrieval. Retrieval of "outage" is
 * unavailable, of "explode" fails unexpectedly; `beforeRetrieve` can hold an answer back;
 * `runner` replaces the extractive runner (a model runner over a failing model, say).
 */
export function createTestAssistant(
  store: Pick<Store, 'sessions'>,
  options: { beforeRetrieve?: () => Promise<void>; runner?: AgentRunner; traces?: TraceSink } = {},
): Assistant {
  return createAssistant({
    registry,
    router,
    rag: fakeRag(options.beforeRetrieve),
    context: createContextSkill(store.sessions),
    runner: options.runner ?? createExtractiveRunner(),
    ...(options.traces ? { traces: options.traces } : {}),
  });
}

const file = (body: string) => ({ body, type: 'text/plain', etag: `"${body.length}"` });

/** A stand-in for the built web page. */
export const testWebAssets = async (): Promise<WebAssets> => ({
  '/': file('<html>chat</html>'),
  '/app.js': file('js'),
  '/app.css': file('css'),
});

/** Reads a Server-Sent Events response to its end. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  if (!response.body) return events;
  for await (const event of readSseEvents(response.body)) events.push(event);
  return events;
}
