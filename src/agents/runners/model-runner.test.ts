import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedStep,
} from '../../test/scripted-model.js';
import { CohortConfig } from '../../config/index.js';
import { CohortError, isCohortError } from '../../errors/index.js';
import { createModelProvider, type ModelProvider } from '../../models/index.js';
import { AgentContext, type AgentResponse, type RetrievedChunk } from '../../schema/index.js';
import type { RagSkill } from '../rag-skill.js';
import { createLogger } from '../../telemetry/index.js';
import { defineAgent } from '../define-agent.js';
import type { AgentDependencies } from '../dependencies.js';
import {
  createModelRunner,
  EMPTY_QUERY_MESSAGE,
  GROUNDING_SYSTEM_PROMPT,
  groundingSystemPrompt,
  MODEL_FAILURE_MESSAGE,
  NO_RESULTS_MESSAGE,
  RETRIEVAL_UNAVAILABLE_MESSAGE,
  type SearchToolResult,
} from './model-runner.js';
import type { AgentEvent } from './runner.js';

const agent = defineAgent({
  name: 'hardware',
  domain: 'hardware',
  description: 'Answers hardware questions from the book.',
  keywords: ['jetson', 'gpu', 'sensor'],
  systemPrompt: 'You specialise in the hardware chapters of the book.',
  retrievalDomain: 'hardware',
  model: 'fast',
});

const chunk = (n: number, score = 0.8): RetrievedChunk => ({
  id: `c${n}`,
  text: `Passage ${n} about the Jetson Orin.`,
  source: `docs/hardware/page-${n}.md`,
  title: `Page ${n}`,
  section: `Section ${n}`,
  score,
  metadata: {},
});

/** A RagSkill that answers each call from a list (an Error is thrown), recording its calls. */
function fakeRag(answers: Array<RetrievedChunk[] | Error>) {
  const calls: Array<{ query: string; domain?: string; limit?: number }> = [];
  const rag: RagSkill = {
    name: 'rag',
    description: 'fake',
    retrieve: async (query, options) => {
      calls.push({ query, domain: options?.domain, limit: options?.limit });
      const answer = answers.shift() ?? [];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { rag, calls };
}

function logs() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    logger: createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) }),
  };
}

const deps = (rag: RagSkill, extra: Partial<AgentDependencies> = {}): AgentDependencies => ({
  rag,
  logger: createLogger({ level: 'silent' }),
  minScore: 0.2,
  limit: 5,
  ...extra,
});

const config = (model: Record<string, unknown> = {}) =>
  CohortConfig.parse({
    model: {
      baseUrl: 'http://127.0.0.1:9/v1',
      name: 'full-model',
      tiers: { fast: 'fast-model' },
      ...model,
    },
  });

const providerOf = (model: LanguageModelV3): ModelProvider => ({
  languageModel: () => model,
  resolveModelId: () => model.modelId,
  describe: () => 'mock',
});

const usage = { inputTokens: 40, outputTokens: 10 };
const search = (query: string, id = 'call_1'): ScriptedStep => ({
  toolCalls: [{ toolName: 'search_book_content', input: { query }, toolCallId: id }],
  usage,
});
const say = (text: string): ScriptedStep => ({ text, usage });

const scriptedModel = (steps: Array<ScriptedStep | Error>) =>
  createScriptedModel(
    steps.map((step) => (step instanceof Error ? { error: step } : step)),
    { modelId: 'mock-model', record: true },
  );

async function run(
  provider: ModelProvider,
  cfg: CohortConfig,
  context: Partial<AgentContext>,
  dependencies: AgentDependencies,
) {
  const events: AgentEvent[] = [];
  const runner = createModelRunner({ provider, config: cfg, retryDelayMs: 1 });
  for await (const event of runner.run(
    agent,
    AgentContext.parse({ query: 'How much power does the Jetson draw?', ...context }),
    dependencies,
  )) {
    events.push(event);
  }
  const last = events.at(-1);
  if (last?.type !== 'response') throw new Error('the run did not end with a response');
  return { events, response: last.response as AgentResponse };
}

/** What the model was sent as the result of its last tool call. */
function lastToolResult(model: ScriptedModel): SearchToolResult {
  const call = model.calls.at(-1) as LanguageModelV3CallOptions;
  const message = call.prompt.at(-1);
  if (message?.role !== 'tool') throw new Error('last message is not a tool result');
  const part = message.content[0];
  if (part?.type !== 'tool-result' || part.output.type !== 'json')
    throw new Error('not a json tool result');
  return part.output.value as unknown as SearchToolResult;
}

describe('createModelRunner (scripted model)', () => {
  it('searches the agent domain, answers with citations, a Sources footer and usage per call and run', async () => {
    const model = scriptedModel([search('Jetson power'), say('The Orin draws 15 to 60 W [1].')]);
    const { rag, calls } = fakeRag([[chunk(1), chunk(2)]]);
    const { events, response } = await run(providerOf(model), config(), {}, deps(rag));

    expect(calls).toEqual([{ query: 'Jetson power', domain: 'hardware', limit: 5 }]);
    expect(events.map((e) => e.type)).toEqual(['retrieval', 'delta', 'delta', 'response']);
    expect(response.response).toBe(
      'The Orin draws 15 to 60 W [1].\n\n---\n**Sources:**\n[1] docs/hardware/page-1.md § Section 1 (score: 0.80)',
    );
    expect(response.sources).toHaveLength(1);
    expect(response.metadata).toMatchObject({
      mode: 'model',
      model: 'mock-model',
      usage: { promptTokens: 80, completionTokens: 20, totalTokens: 100 },
      calls: [
        { step: 1, usage: { totalTokens: 50 } },
        { step: 2, usage: { totalTokens: 50 } },
      ],
      ungrounded_citations: [],
    });
    const first = model.calls[0] as LanguageModelV3CallOptions;
    expect(first.prompt[0]).toEqual({
      role: 'system',
      content: `${GROUNDING_SYSTEM_PROMPT}\n\n${agent.systemPrompt}`,
    });
    expect(first.tools?.map((tool) => tool.name)).toEqual(['search_book_content']);
    // The parameters as rag-agent-research.md §1 describes them to the model.
    const tool = first.tools?.[0];
    expect(tool?.type === 'function' ? tool.inputSchema : undefined).toMatchObject({
      properties: {
        query: { type: 'string', description: 'The search query' },
        top_k: { type: 'integer', description: 'Number of results', default: 5 },
      },
      required: ['query'],
    });
  });

  it("searches the context's domain filter (AgentContext.domain_filter) over the agent's domain", async () => {
    // The extractive runner honoured `domainFilter`; the model runner searched the agent's domain.
    const model = scriptedModel([search('Jetson power'), say('The Orin draws 15 to 60 W [1].')]);
    const { rag, calls } = fakeRag([[chunk(1)]]);
    await run(providerOf(model), config(), { domainFilter: 'capstone' }, deps(rag));

    expect(calls).toEqual([{ query: 'Jetson power', domain: 'capstone', limit: 5 }]);
    const first = model.calls[0] as LanguageModelV3CallOptions;
    const tool = first.tools?.[0];
    expect(tool?.type === 'function' ? tool.description : '').toContain('the capstone part');
  });

  it('strips a fabricated citation of any length ([1000], [999999999999]) split across deltas', async () => {
    const model = scriptedModel([
      search('Jetson'),
      { text: ['It uses 60 W [1000] and [9999', '99999999] has a GPU [2].'], usage },
    ]);
    const { rag } = fakeRag([[chunk(1), chunk(2)]]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));

    expect(response.response.startsWith('It uses 60 W and has a GPU [1].')).toBe(true);
    expect(response.metadata.ungrounded_citations).toEqual([1000, 999999999999]);
  });

  it('strips a fabricated citation ([7] with 2 chunks) and records it', async () => {
    const model = scriptedModel([search('Jetson'), say('It uses 60 W [7] and has a GPU [2].')]);
    const { rag } = fakeRag([[chunk(1), chunk(2)]]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));

    expect(response.response.startsWith('It uses 60 W and has a GPU [1].')).toBe(true);
    expect(response.metadata.ungrounded_citations).toEqual([7]);
    // Only the cited chunk is listed, renumbered to [1] to match the text.
    expect(response.sources).toMatchObject([{ index: 1, chunkId: 'c2' }]);
    expect(response.response).toContain('[1] docs/hardware/page-2.md');
    expect(response.response).not.toContain('page-1.md');
  });

  it('says under an answer whose every citation names no passage that nothing backs it', async () => {
    // Found from outside: "A topic is a channel [7][42] and see [0]" was shown as "A topic is a
    // channel and see." with no sources and no word that the model cited passages it never had.
    const model = scriptedModel([search('topic'), say('A topic is a channel [7][42].')]);
    const { rag } = fakeRag([[chunk(1), chunk(2)]]);
    const { events, response } = await run(providerOf(model), config(), {}, deps(rag));
    const streamed = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');

    expect(response.sources).toEqual([]);
    expect(response.metadata.ungrounded_citations).toEqual([7, 42]);
    expect(response.response).toBe(
      'A topic is a channel.\n\nNote: this answer is not backed by the book: it cited [7], [42], and no passage it was given has those numbers.',
    );
    expect(streamed).toBe(response.response);
  });

  it('adds no note when one citation of the answer names a passage', async () => {
    const model = scriptedModel([search('topic'), say('A topic is a channel [7] [2].')]);
    const { rag } = fakeRag([[chunk(1), chunk(2)]]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));
    expect(response.response).not.toContain('not backed');
  });

  it('numbers chunks across searches in order received, reusing the number of a repeated chunk', async () => {
    const model = scriptedModel([search('a'), search('b', 'call_2'), say('See [3] and [1].')]);
    const { rag } = fakeRag([
      [chunk(1), chunk(2)],
      [chunk(2), chunk(3)],
    ]);
    await run(providerOf(model), config(), {}, deps(rag));
    expect(lastToolResult(model).content.map((c) => c.index)).toEqual([2, 3]);
  });

  it('answers with the retrieval-unavailable message and stops when the store is down', async () => {
    const model = scriptedModel([search('Jetson'), say('should not be asked')]);
    const { rag } = fakeRag([new CohortError('retrieval_unavailable', 'database is down')]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));
    expect(response.response).toBe(RETRIEVAL_UNAVAILABLE_MESSAGE);
    expect(response.metadata.error).toBe('retrieval_unavailable');
    expect(model.calls).toHaveLength(1);
  });

  it('names the work as it names itself: the prompt, the tool and the messages', async () => {
    // Over the ROS 2 docs the prompt said "answers questions about the book" and a failed search
    // "I'm unable to search the book right now".
    const model = scriptedModel([search('Jetson'), say('should not be asked')]);
    const { rag } = fakeRag([new CohortError('retrieval_unavailable', 'database is down')]);
    const docs = { ...rag, workName: () => 'documentation' };
    const { response } = await run(providerOf(model), config(), {}, deps(docs));
    expect(response.response).toBe(
      "I'm unable to search the documentation right now. The retrieval service is unavailable.",
    );
    const first = model.calls[0] as LanguageModelV3CallOptions;
    expect(first.prompt[0]).toEqual({
      role: 'system',
      content: `${groundingSystemPrompt('documentation')}\n\n${agent.systemPrompt}`,
    });
    expect(groundingSystemPrompt('documentation')).toContain(
      'answers questions about the documentation',
    );
    expect((first.tools?.[0] as { description?: string } | undefined)?.description).toMatch(
      /^Search the documentation for passages/,
    );
  });

  it('reports the step cap as a failure naming how to raise it, not as an answer', async () => {
    const model = scriptedModel([
      { ...search('Jetson'), text: 'Let me look.' },
      { ...search('Orin', 'call_2'), text: 'And once more.' },
    ]);
    const { rag } = fakeRag([[chunk(1)], [chunk(2)]]);
    const { response } = await run(providerOf(model), config({ maxSteps: 2 }), {}, deps(rag));
    expect(response.metadata).toMatchObject({
      error: 'budget_exceeded',
      finishReason: 'max_steps',
    });
    expect(response.response).toBe(
      'Stopped after 2 model steps without a final answer: the model kept calling tools. Raise model.maxSteps (COHORT_MAX_STEPS) or ask a narrower question.',
    );
    expect(response.sources).toEqual([]);
  });

  it('gives the no-results status to the model and enforces the no-results answer', async () => {
    const model = scriptedModel([
      search('quantum teleportation'),
      say('Quantum teleportation moves qubits.'),
    ]);
    const { rag } = fakeRag([[]]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));
    expect(lastToolResult(model)).toMatchObject({ status: 'no_results', content: [] });
    expect(response.response).toBe(NO_RESULTS_MESSAGE);
    expect(response.sources).toEqual([]);
  });

  it('answers an empty query with the spec message before any call', async () => {
    const model = scriptedModel([]);
    const { rag, calls } = fakeRag([]);
    const runner = createModelRunner({ provider: providerOf(model), config: config() });
    const context = {
      sessionId: 'anonymous',
      query: '   ',
      chatHistory: [],
      metadata: {},
    } as AgentContext;
    const events: AgentEvent[] = [];
    for await (const event of runner.run(agent, context, deps(rag))) events.push(event);
    expect(events).toMatchObject([
      { type: 'response', response: { response: EMPTY_QUERY_MESSAGE } },
    ]);
    expect(model.calls).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('answers with the model-failure message and logs the cause when the model fails', async () => {
    const model = scriptedModel([new Error('socket hang up')]);
    const { rag } = fakeRag([]);
    const { lines, logger } = logs();
    const { response } = await run(
      providerOf(model),
      config({ maxRetries: 0 }),
      {},
      deps(rag, { logger }),
    );
    expect(response.response).toBe(MODEL_FAILURE_MESSAGE);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'model_call_failed',
        message: expect.stringContaining('socket hang up'),
      }),
    );
  });

  it('passes low similarity scores to the model with a warning and lets it decide', async () => {
    const model = scriptedModel([search('Jetson'), say('The passages do not cover this.')]);
    const { rag } = fakeRag([[chunk(1, 0.05)]]);
    const { response } = await run(providerOf(model), config(), {}, deps(rag));
    const result = lastToolResult(model);
    expect(result.status).toBe('success');
    expect(result.content[0]?.score).toBe(0.05);
    expect(result.message).toMatch(/below 0.2/);
    expect(response.response).toBe('The passages do not cover this.');
  });

  it('sends the chat history before the question', async () => {
    const model = scriptedModel([say('Yes, as said [1].')]);
    const { rag } = fakeRag([]);
    await run(
      providerOf(model),
      config(),
      {
        chatHistory: [
          { role: 'user', content: 'What is a Jetson?' },
          { role: 'assistant', content: 'An embedded GPU board.' },
        ],
      },
      deps(rag),
    );
    const prompt = (model.calls[0] as LanguageModelV3CallOptions).prompt;
    expect(prompt.slice(1).map((m) => [m.role, (m.content[0] as { text: string }).text])).toEqual([
      ['user', 'What is a Jetson?'],
      ['assistant', 'An embedded GPU board.'],
      ['user', 'How much power does the Jetson draw?'],
    ]);
  });
});

describe('createModelRunner (fake OpenAI-compatible server)', () => {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const serverConfig = (baseUrl: string, model: Record<string, unknown> = {}) =>
    CohortConfig.parse({ model: { baseUrl, name: 'book-model', ...model } });

  it('runs a streamed tool call whose JSON arguments arrive split across SSE chunks', async () => {
    server = await startFakeOpenAI({
      chat: [
        {
          kind: 'tool_call',
          name: 'search_book_content',
          arguments: '{"query": "Jetson power budget", "top_k": 3}',
          pieces: 6,
        },
        {
          kind: 'text',
          text: 'The Orin needs up to 60 W [1].',
          pieces: 4,
          usage: { prompt: 100, completion: 20 },
        },
      ],
    });
    const cfg = serverConfig(server.baseUrl);
    const { rag, calls } = fakeRag([[chunk(1)]]);
    const { events, response } = await run(createModelProvider(cfg), cfg, {}, deps(rag));

    expect(calls).toEqual([{ query: 'Jetson power budget', domain: 'hardware', limit: 3 }]);
    expect(response.response).toMatch(
      /^The Orin needs up to 60 W \[1\]\.\n\n---\n\*\*Sources:\*\*\n\[1\] docs\/hardware\/page-1.md/,
    );
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(2);
    expect(response.metadata).toMatchObject({
      model: 'book-model',
      usage: { promptTokens: 112, completionTokens: 28, totalTokens: 140 },
    });
    expect(server.requests[0]?.body).toMatchObject({
      model: 'book-model',
      stream: true,
      tools: [{ type: 'function', function: { name: 'search_book_content' } }],
    });
    // The second request carries the tool call and its numbered result.
    const messages = server.requests[1]?.body.messages as Array<{ role: string; content: string }>;
    expect(messages.at(-1)?.role).toBe('tool');
    expect(JSON.parse(messages.at(-1)?.content ?? '{}')).toMatchObject({
      status: 'success',
      content: [{ index: 1 }],
    });
  });

  it('retries a 500 and then succeeds', async () => {
    server = await startFakeOpenAI({
      chat: [
        { kind: 'status', status: 500 },
        { kind: 'text', text: 'Hello from the book [1].' },
      ],
    });
    const cfg = serverConfig(server.baseUrl);
    const { rag } = fakeRag([]);
    const { response } = await run(createModelProvider(cfg), cfg, {}, deps(rag));
    expect(server.requests).toHaveLength(2);
    // It searched nothing, so its [1] names no passage, and the answer says so.
    expect(response.response).toBe(
      'Hello from the book.\n\nNote: this answer is not backed by the book: it cited [1], and no passage it was given has that number.',
    );
    expect(response.metadata).toMatchObject({
      calls: [{ attempts: 2 }],
      ungrounded_citations: [1],
    });
  });

  it('times out a server that never answers and answers with the model-failure message', async () => {
    server = await startFakeOpenAI({ chat: [{ kind: 'hang' }, { kind: 'hang' }] });
    const cfg = serverConfig(server.baseUrl, { timeoutSeconds: 0.2, maxRetries: 1 });
    const { rag } = fakeRag([]);
    const { lines, logger } = logs();
    const { response } = await run(createModelProvider(cfg), cfg, {}, deps(rag, { logger }));
    expect(response.response).toBe(MODEL_FAILURE_MESSAGE);
    expect(response.metadata.error).toBe('timeout');
    expect(server.requests).toHaveLength(2);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'model_call_failed', code: 'timeout' }),
    );
  });

  it('keeps the log bounded when the server fails with an enormous error message', async () => {
    const huge = 'E'.repeat(1_000_000);
    server = await startFakeOpenAI({
      chat: [
        { kind: 'status', status: 500, message: huge },
        { kind: 'status', status: 500, message: huge },
      ],
    });
    const cfg = serverConfig(server.baseUrl, { maxRetries: 1 });
    const { rag } = fakeRag([]);
    const written: string[] = [];
    const logger = createLogger({ level: 'debug', write: (line) => written.push(line) });
    const { response } = await run(createModelProvider(cfg), cfg, {}, deps(rag, { logger }));
    expect(response.response).toBe(MODEL_FAILURE_MESSAGE);
    const failed = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(failed).toContainEqual(
      expect.objectContaining({
        event: 'model_call_failed',
        message: expect.stringMatching(/^The model call failed \(HTTP 500\): EEE/),
      }),
    );
    for (const line of written) expect(line.length).toBeLessThan(10_000);
  });

  it('answers with the model-failure message when the body is malformed', async () => {
    server = await startFakeOpenAI({ chat: [{ kind: 'malformed' }] });
    const cfg = serverConfig(server.baseUrl);
    const { rag } = fakeRag([]);
    const { response } = await run(createModelProvider(cfg), cfg, {}, deps(rag));
    expect(response.response).toBe(MODEL_FAILURE_MESSAGE);
    expect(response.metadata.error).toBe('model_unavailable');
  });

  it('cancellation by AbortSignal closes the HTTP request on the server', async () => {
    server = await startFakeOpenAI({ chat: [{ kind: 'hang' }] });
    const cfg = serverConfig(server.baseUrl);
    const { rag } = fakeRag([]);
    const controller = new AbortController();
    const closed = server.nextClientAbort();
    const running = run(
      createModelProvider(cfg),
      cfg,
      {},
      deps(rag, { signal: controller.signal }),
    ).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await closed;
    expect(server.clientAborts).toBe(1);
    expect(isCohortError(await running, 'aborted')).toBe(true);
  });
});
