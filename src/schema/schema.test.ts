import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AgentContext,
  AgentDomain,
  AgentInfoResponse,
  AgentResponse,
  ChatResponse,
  Citation,
  ContentDomain,
  Message,
  plainQuery,
  Query,
  RetrievedChunk,
  RouteRequest,
  RouteResponse,
  RouteResult,
  fromWire,
  toWire,
} from './index.js';

const message = (i: number) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` });

describe('AgentContext', () => {
  it('accepts a UUID or "anonymous" as session id and nothing else', () => {
    expect(AgentContext.safeParse({ sessionId: randomUUID(), query: 'q' }).success).toBe(true);
    expect(AgentContext.safeParse({ sessionId: 'anonymous', query: 'q' }).success).toBe(true);
    const bad = AgentContext.safeParse({ sessionId: 'session-1', query: 'q' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('session_id must be a UUID or "anonymous"');
  });

  it('trims the query and keeps it within 1..2000 characters', () => {
    expect(AgentContext.parse({ query: '  What is a topic?  ' }).query).toBe('What is a topic?');
    expect(AgentContext.safeParse({ query: ' \n\t ' }).error?.issues[0]?.message).toBe(
      'Please provide a question to ask about the book.',
    );
    expect(AgentContext.safeParse({}).error?.issues[0]?.message).toBe(
      'Please provide a question to ask about the book.',
    );
    expect(AgentContext.safeParse({ query: 'a'.repeat(2000) }).success).toBe(true);
    expect(AgentContext.safeParse({ query: `  ${'a'.repeat(2000)}  ` }).success).toBe(true);
    expect(AgentContext.safeParse({ query: 'a'.repeat(2001) }).success).toBe(false);
  });

  it('names the type of a query that is not text instead of asking for a question', () => {
    const messageFor = (query: unknown) =>
      AgentContext.safeParse({ query }).error?.issues[0]?.message;
    expect(messageFor({ text: 'What is a topic?' })).toBe(
      'The question must be text, not an object.',
    );
    expect(messageFor(['What is a topic?'])).toBe('The question must be text, not a list.');
    expect(messageFor(42)).toBe('The question must be text, not a number.');
    expect(messageFor(null)).toBe('Please provide a question to ask about the book.');
  });

  it('keeps only the last 10 messages of history', () => {
    const context = AgentContext.parse({
      query: 'q',
      chatHistory: Array.from({ length: 14 }, (_, i) => message(i)),
    });
    expect(context.chatHistory.map((m) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 4}`),
    );
  });
});

describe('entities', () => {
  const chunk = { text: 'A topic is a channel.', source: 'a.md', title: 'A', score: 0.5 };
  it('RetrievedChunk: score in 0..1 and non-empty text', () => {
    expect(RetrievedChunk.safeParse(chunk).success).toBe(true);
    expect(RetrievedChunk.safeParse({ ...chunk, score: 1.2 }).success).toBe(false);
    expect(RetrievedChunk.safeParse({ ...chunk, score: -0.1 }).success).toBe(false);
    expect(RetrievedChunk.safeParse({ ...chunk, text: '   ' }).success).toBe(false);
  });

  it('AgentResponse: non-empty response, confidence in 0..1', () => {
    const ok = { response: 'Answer', sources: [], agentName: 'glossary', confidence: 0.4 };
    expect(AgentResponse.safeParse(ok).success).toBe(true);
    expect(AgentResponse.safeParse({ ...ok, response: ' ' }).success).toBe(false);
    expect(AgentResponse.safeParse({ ...ok, confidence: 2 }).success).toBe(false);
  });

  it('RouteResult: confidence in 0..1 and a non-empty reason', () => {
    const ok = {
      primaryAgent: 'glossary',
      confidence: 0.9,
      routingReason: 'keyword',
      isMultiDomain: false,
      phase: 'keyword',
    };
    expect(RouteResult.parse(ok).secondaryAgents).toEqual([]);
    expect(RouteResult.safeParse({ ...ok, routingReason: '' }).success).toBe(false);
    expect(RouteResult.safeParse({ ...ok, confidence: 1.5 }).success).toBe(false);
  });

  it('Message carries the answering agent; Citation numbers from 1', () => {
    expect(
      Message.parse({ role: 'assistant', content: 'x', agentName: 'hardware' }).agentName,
    ).toBe('hardware');
    expect(Message.safeParse({ role: 'system', content: 'x' }).success).toBe(false);
    expect(
      Citation.safeParse({ index: 0, source: 'a.md', title: 'A', relevanceScore: 0.5 }).success,
    ).toBe(false);
  });

  it('the domain enumerations of the data model', () => {
    expect(AgentDomain.options).toEqual([
      'glossary',
      'hardware',
      'module_info',
      'capstone',
      'book',
    ]);
    expect(ContentDomain.options).toContain('general');
  });

  it('API schemas: RouteRequest validates the query; responses have the spec fields', () => {
    expect(RouteRequest.safeParse({ query: '' }).success).toBe(false);
    expect(
      RouteResponse.safeParse({
        primaryAgent: 'a',
        secondaryAgents: [],
        confidence: 0.5,
        reason: 'r',
        isMultiDomain: false,
        phase: 'intent',
      }).success,
    ).toBe(true);
    expect(
      AgentInfoResponse.safeParse({
        agents: [{ name: 'a', domain: 'd', description: 'x', keywords: [] }],
        total: 1,
      }).success,
    ).toBe(true);
    const chat = ChatResponse.parse({
      answer: 'a',
      citations: [],
      queryId: 'q',
      sessionId: 'anonymous',
      mode: 'extractive',
      agentUsed: 'book',
      routingConfidence: 0.3,
      latencyMs: 3,
    });
    expect(Object.keys(toWire(chat) as object)).toEqual(
      expect.arrayContaining([
        'answer',
        'citations',
        'query_id',
        'session_id',
        'latency_ms',
        'agent_used',
        'routing_confidence',
      ]),
    );
    expect(fromWire(toWire(chat))).toEqual(chat);
  });
});

describe('plainQuery', () => {
  it('takes exactly the questions Query takes, trimmed as Query trims them', () => {
    for (const input of [
      'What is a topic?',
      '  padded  ',
      '\n\tWhat is a topic?\u00a0',
      '',
      '   ',
      'a'.repeat(2000),
      'a'.repeat(2001),
      ` ${'a'.repeat(2000)} `,
      'a\u0000b',
      'a\ud800b',
      'a\udc00b',
      'emoji \ud83e\udd16 ok',
      42,
      null,
      undefined,
      ['What is a topic?'],
      { query: 'What is a topic?' },
    ]) {
      const parsed = Query.safeParse(input);
      expect(plainQuery(input), JSON.stringify(input)).toBe(
        parsed.success ? parsed.data : undefined,
      );
    }
  });
});
