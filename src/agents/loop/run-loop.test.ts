import type { LanguageModelV3StreamPart, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCohortError } from '../../errors/index.js';
import { toWire } from '../../schema/index.js';
import { storableJson } from '../../store/storable-text.js';
import { createScriptedModel, type ScriptedStep } from '../../test/scripted-model.js';
import { defineTool, runLoop, runLoopStream, type LoopEvent } from './index.js';
import { MAX_PARALLEL_TOOL_CALLS, MAX_TOOL_CALLS_PER_STEP } from './tool-execution.js';
import { MAX_TOOL_CALLS_PER_REPLY } from './turn.js';

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A step of raw stream parts, for what a scripted answer cannot say (an error mid-stream). */
const stream = (parts: LanguageModelV3StreamPart[]): ScriptedStep => ({ parts });

const toolCallStep = (toolName: string, input: unknown, id = 'call_1'): ScriptedStep => ({
  toolCalls: [{ toolName, input, toolCallId: id }],
  usage: { inputTokens: 20, outputTokens: 5 },
});

const textStep = (...chunks: string[]): ScriptedStep => ({
  text: chunks,
  usage: { inputTokens: 30, outputTokens: 7 },
});

/** A model that answers call N with `steps[N]`, recording every call. */
const scripted = (steps: Array<ScriptedStep | Error>) =>
  createScriptedModel(
    steps.map((step) => (step instanceof Error ? { error: step } : step)),
    { record: true },
  );

/** A model whose every call waits for its abort signal (one that never answers). */
const silent = () => createScriptedModel(() => ({ delayMs: 3_600_000 }), { record: true });

function addTool(executed: Array<{ a: number; b: number }>) {
  return defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: (input) => {
      executed.push(input);
      return { sum: input.a + input.b };
    },
  });
}

const base = { system: 'You add numbers.', maxSteps: 6, timeoutMs: 5_000, retryDelayMs: 1 };
const ask = [{ role: 'user' as const, content: 'What is 2 + 3?' }];

describe('runLoop', () => {
  it('waits a model call out under a limit longer than a timer can hold, instead of failing it at once', async () => {
    // Node fires a timer asked for more than 2^31-1 ms after 1 ms: the limit of 3,000,000 s failed
    // every call with "did not answer within 3000000 s".
    const model = createScriptedModel([{ text: 'Five.', delayMs: 30 }]);
    const result = await runLoop({ ...base, timeoutMs: 3_000_000_000, model, messages: ask });
    expect(result.text).toBe('Five.');
  });

  it('calls a tool, feeds the result back and returns the final text with usage per call and per run', async () => {
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([toolCallStep('add', { a: 2, b: 3 }), textStep('The sum ', 'is 5.')]);
    const result = await runLoop({ ...base, model, messages: ask, tools: [addTool(executed)] });

    expect(result.text).toBe('The sum is 5.');
    expect(result.finishReason).toBe('stop');
    expect(result.steps).toBe(2);
    expect(executed).toEqual([{ a: 2, b: 3 }]);
    expect(result.toolCalls).toMatchObject([
      { toolName: 'add', output: { sum: 5 }, isError: false, step: 1 },
    ]);
    expect(result.calls.map((call) => call.usage.totalTokens)).toEqual([25, 37]);
    expect(result.usage).toEqual({ promptTokens: 50, completionTokens: 12, totalTokens: 62 });
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    // The second call saw the system prompt, the tool call and its result.
    const second = model.calls[1] as LanguageModelV3CallOptions;
    expect(second.prompt[0]).toEqual({ role: 'system', content: 'You add numbers.' });
    expect(second.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-result', toolName: 'add', output: { type: 'json', value: { sum: 5 } } },
      ],
    });
    expect(second.tools?.[0]).toMatchObject({ type: 'function', name: 'add' });
  });

  it('stops a tool call that runs past toolTimeoutMs, aborting its signal, and the run goes on', async () => {
    // A tool that never ends (a hung MCP server, a tool that ignores its signal) held the run for
    // ever: every other wait of the loop had a bound, tool calls had none of their own.
    let aborted = false;
    const hang = defineTool({
      name: 'hang',
      description: 'Never answers.',
      inputSchema: z.object({}),
      execute: (_input, { signal }) =>
        new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
    });
    const model = scripted([toolCallStep('hang', {}), textStep('It hung.')]);
    const started = Date.now();
    const result = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [hang],
      toolTimeoutMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.text).toBe('It hung.');
    expect(aborted).toBe(true);
    const second = model.calls[1] as LanguageModelV3CallOptions;
    expect(second.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolName: 'hang',
          output: {
            type: 'error-text',
            value: expect.stringMatching(/hang did not finish within 0\.2 s.*stopped/),
          },
        },
      ],
    });
  });

  it('ends a run at budget.maxMs, stopping the tool calls in flight, apart from a cancellation', async () => {
    // Found by an outside tester: a run had no overall limit, only each call's.
    let aborted = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes its time.',
      inputSchema: z.object({}),
      execute: (_input, { signal }) =>
        new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
    });
    const started = Date.now();
    const result = await runLoop({
      ...base,
      model: scripted([toolCallStep('slow', {}), textStep('never read')]),
      messages: ask,
      tools: [slow],
      budget: { maxMs: 300, maxMsSetting: 'tools.runTimeoutSeconds' },
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(aborted).toBe(true);
    expect(result.finishReason).toBe('budget');
    expect(result.stopMessage).toBe(
      'Stopped: the run reached its time limit of 0.3 s; what was running was stopped. Ask for less at once, or raise tools.runTimeoutSeconds.',
    );
    const cancel = new AbortController();
    const cancelled = runLoop({
      ...base,
      model: scripted([toolCallStep('slow', {}), textStep('never read')]),
      messages: ask,
      tools: [slow],
      budget: { maxMs: 60_000 },
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(), 100);
    expect((await cancelled).finishReason).toBe('aborted');
  });

  it('refuses a tool that is not allowed here without running it', async () => {
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([toolCallStep('add', { a: 1, b: 1 }), textStep('I cannot add.')]);
    const result = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool(executed)],
      allowedTools: [],
    });

    expect(executed).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({
      isError: true,
      output: 'tool add is not allowed here',
    });
    const second = model.calls[1] as LanguageModelV3CallOptions;
    expect(second.tools).toBeUndefined();
    expect(second.prompt.at(-1)).toMatchObject({
      content: [{ output: { type: 'error-text', value: 'tool add is not allowed here' } }],
    });
  });

  it('turns bad arguments, unknown tools and throwing tools into tool errors the model reads', async () => {
    const failing = defineTool({
      name: 'fail',
      description: 'Always fails.',
      inputSchema: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const model = scripted([
      stream([
        { type: 'tool-call', toolCallId: 'a', toolName: 'add', input: '{"a": "two"}' },
        { type: 'tool-call', toolCallId: 'b', toolName: 'nope', input: '{}' },
        { type: 'tool-call', toolCallId: 'c', toolName: 'fail', input: '{}' },
        { type: 'tool-call', toolCallId: 'd', toolName: 'add', input: '{"a": 1,' },
        {
          type: 'finish',
          usage: usage(1, 1),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        },
      ]),
      textStep('Done.'),
    ]);
    const result = await runLoop({ ...base, model, messages: ask, tools: [addTool([]), failing] });
    expect(result.toolCalls.map((call) => [call.isError, call.output])).toEqual([
      [true, expect.stringContaining('invalid arguments for tool add: a:')],
      [true, 'tool nope does not exist; available tools: add, fail'],
      [true, 'tool fail failed: disk on fire'],
      [true, 'invalid arguments for tool add: arguments are not valid JSON'],
    ]);
    expect(result.text).toBe('Done.');
  });

  it('refuses arguments nested deeper than a request body may be, keeping them as text', async () => {
    // A hostile model's 5,000 nested arrays: storing the run (storableJson, toWire) overflowed.
    const deep = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const model = scripted([
      stream([
        { type: 'tool-call', toolCallId: 'a', toolName: 'add', input: deep },
        { type: 'tool-call', toolCallId: 'b', toolName: 'nope', input: deep },
        {
          type: 'finish',
          usage: usage(1, 1),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        },
      ]),
      textStep('Done.'),
    ]);
    const result = await runLoop({ ...base, model, messages: ask, tools: [addTool([])] });
    expect(result.toolCalls.map((call) => [call.input, call.output])).toEqual([
      [deep, 'invalid arguments for tool add: arguments are nested more than 64 levels deep'],
      [deep, 'tool nope does not exist; available tools: add'],
    ]);
    expect(() => storableJson(result)).not.toThrow();
    expect(() => toWire(result.messages)).not.toThrow();
    expect(result.text).toBe('Done.');
  });

  it("runs a bounded number of one reply's tool calls, a few at a time, and refuses the rest", async () => {
    // A reply asking for 100 calls at once (100 sandboxes, or 100 subagents, in parallel).
    let running = 0;
    let most = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes a moment.',
      inputSchema: z.object({}),
      execute: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return 'ok';
      },
    });
    const model = scripted([
      {
        toolCalls: Array.from({ length: 100 }, (_, i) => ({
          toolName: 'slow',
          input: {},
          toolCallId: `c${i}`,
        })),
      },
      textStep('Done.'),
    ]);
    const result = await runLoop({ ...base, model, messages: ask, tools: [slow] });
    expect(result.text).toBe('Done.');
    expect(result.toolCalls).toHaveLength(100);
    const ran = result.toolCalls.filter((call) => !call.isError);
    expect(ran).toHaveLength(MAX_TOOL_CALLS_PER_STEP);
    expect(most).toBeLessThanOrEqual(MAX_PARALLEL_TOOL_CALLS);
    expect(result.toolCalls.at(-1)).toMatchObject({
      toolCallId: 'c99',
      isError: true,
      output: expect.stringMatching(/100 tool calls.*at most 32/),
    });
  });

  it('fails a reply asking for more tool calls than one reply may hold, without a retry', async () => {
    // 20,000 calls in one reply: each went back with the conversation at every later step (29 MB
    // requests by the sixth), and one POST /chat took 75 s and 300 MB.
    const calls = Array.from(
      { length: MAX_TOOL_CALLS_PER_REPLY + 1 },
      (_, i): LanguageModelV3StreamPart => ({
        type: 'tool-call',
        toolCallId: `c${i}`,
        toolName: 'add',
        input: '{"a":1,"b":2}',
      }),
    );
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([stream(calls), textStep('Three.')]);
    const failed = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool(executed)],
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCohortError(failed, 'model_unavailable')).toBe(true);
    expect(String((failed as Error).message)).toMatch(/more than 1,000 tool calls/);
    expect(model.calls).toHaveLength(1);
    expect(executed).toHaveLength(0);
  });

  it('ends a runaway loop at the step cap with a clear message', async () => {
    const model = createScriptedModel(() => toolCallStep('add', { a: 1, b: 1 }), { record: true });
    const result = await runLoop({
      ...base,
      maxSteps: 3,
      model,
      messages: ask,
      tools: [addTool([])],
    });
    expect(result.finishReason).toBe('max_steps');
    expect(result.steps).toBe(3);
    expect(model.calls).toHaveLength(3);
    expect(result.stopMessage).toMatch(/Stopped after 3 model steps.*COHORT_MAX_STEPS/);
  });

  it('stops when the token or turn budget is used up', async () => {
    const model = createScriptedModel(() => toolCallStep('add', { a: 1, b: 1 }));
    const tokens = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool([])],
      budget: { maxTokens: 40 },
    });
    expect(tokens.finishReason).toBe('budget');
    expect(tokens.steps).toBe(2);
    expect(tokens.usage.totalTokens).toBe(50);

    const turns = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool([])],
      budget: { maxTurns: 1 },
    });
    expect(turns.finishReason).toBe('budget');
    expect(turns.steps).toBe(1);
  });

  it('counts a negative or fractional token count the server reports as none or whole', async () => {
    // A server reporting -1,000,000 input tokens took that off the total: the budget never ran out.
    const model = createScriptedModel(() => ({
      toolCalls: [{ toolName: 'add', input: { a: 1, b: 1 }, toolCallId: 'call_1' }],
      usage: { inputTokens: -1_000_000, outputTokens: 29.6 },
    }));
    const result = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool([])],
      budget: { maxTokens: 40 },
    });
    expect(result.finishReason).toBe('budget');
    expect(result.steps).toBe(2);
    expect(result.usage).toEqual({ promptTokens: 0, completionTokens: 60, totalTokens: 60 });
  });

  it('halts when stopWhen gives a reason', async () => {
    const model = scripted([toolCallStep('add', { a: 1, b: 1 }), textStep('never')]);
    const result = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool([])],
      stopWhen: ({ toolCalls }) => (toolCalls.length > 0 ? 'enough' : undefined),
    });
    expect(result.finishReason).toBe('halted');
    expect(result.stopMessage).toBe('enough');
    expect(model.calls).toHaveLength(1);
  });

  it('retries a retryable failure and counts the attempts', async () => {
    const overloaded = new APICallError({
      message: 'overloaded',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 503,
      isRetryable: true,
    });
    const model = scripted([overloaded, textStep('ok')]);
    const events: LoopEvent[] = [];
    const result = await runLoop({
      ...base,
      model,
      messages: ask,
      onEvent: (event) => events.push(event),
    });
    expect(result.text).toBe('ok');
    expect(result.calls[0]?.attempts).toBe(2);
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(1);
  });

  it('does not retry once text has been streamed, so no words are shown twice', async () => {
    const broken = stream([
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Half an ans' },
      { type: 'error', error: new TypeError('fetch failed') },
    ]);
    const model = scripted([broken, textStep('never')]);
    const error = await runLoop({ ...base, model, messages: ask }).catch((e: unknown) => e);
    expect(isCohortError(error, 'model_unavailable')).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('does not retry a client error and reports it as model_unavailable', async () => {
    const denied = new APICallError({
      message: 'bad key',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 401,
      isRetryable: false,
    });
    const model = scripted([denied, textStep('never')]);
    const error = await runLoop({ ...base, model, messages: ask }).catch((e: unknown) => e);
    expect(isCohortError(error, 'model_unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/HTTP 401.*OPENAI_API_KEY/);
    expect(model.calls).toHaveLength(1);
  });

  it('stops reading an answer that runs past the output bound, with a typed error and no retry', async () => {
    // A hostile or broken endpoint that streams text forever: 40 deltas of 100,000 characters.
    const endless = stream([
      { type: 'text-start', id: 't' },
      ...Array.from({ length: 40 }, () => ({
        type: 'text-delta' as const,
        id: 't',
        delta: 'A'.repeat(100_000),
      })),
      { type: 'text-end', id: 't' },
      { type: 'finish', usage: usage(1, 1), finishReason: { unified: 'stop', raw: 'stop' } },
    ]);
    const model = scripted([endless, textStep('never')]);
    const events: LoopEvent[] = [];
    const error = await runLoop({
      ...base,
      model,
      messages: ask,
      onEvent: (event) => events.push(event),
    }).catch((e: unknown) => e);
    expect(isCohortError(error, 'model_unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/more than 1,000,000 characters/);
    expect(model.calls).toHaveLength(1);
    const shown = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(shown.join('').length).toBeLessThanOrEqual(1_000_000);
  });

  it('bounds a tool call whose streamed arguments never end the same way', async () => {
    const endless = stream([
      { type: 'tool-input-start', id: 'c1', toolName: 'add' },
      ...Array.from({ length: 30 }, () => ({
        type: 'tool-input-delta' as const,
        id: 'c1',
        delta: ' '.repeat(100_000),
      })),
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{}' },
      {
        type: 'finish',
        usage: usage(1, 1),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      },
    ]);
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([endless, textStep('never')]);
    const error = await runLoop({
      ...base,
      model,
      messages: ask,
      tools: [addTool(executed)],
      maxOutputChars: 500_000,
    }).catch((e: unknown) => e);
    expect(isCohortError(error, 'model_unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/more than 500,000 characters/);
    expect(executed).toHaveLength(0);
  });

  it('times out a call that never answers, retries, then fails with a timeout error', async () => {
    const model = silent();
    const error = await runLoop({
      ...base,
      timeoutMs: 20,
      maxRetries: 1,
      model,
      messages: ask,
    }).catch((e: unknown) => e);
    expect(isCohortError(error, 'timeout')).toBe(true);
    expect(model.callCount).toBe(2);
  });

  it('ends with finish reason aborted when the caller aborts', async () => {
    const controller = new AbortController();
    const model = silent();
    const running = runLoop({ ...base, model, messages: ask, signal: controller.signal });
    controller.abort();
    const result = await running;
    expect(result.finishReason).toBe('aborted');
  });

  it('streams text deltas, tool events and a final finish event in order', async () => {
    const model = scripted([toolCallStep('add', { a: 2, b: 2 }), textStep('Four', '.')]);
    const types: string[] = [];
    let finalText = '';
    for await (const event of runLoopStream({
      ...base,
      model,
      messages: ask,
      tools: [addTool([])],
    })) {
      types.push(event.type);
      if (event.type === 'text-delta') finalText += event.text;
    }
    expect(types).toEqual([
      'step-start',
      'step-finish',
      'tool-call',
      'tool-result',
      'step-start',
      'text-delta',
      'text-delta',
      'step-finish',
      'finish',
    ]);
    expect(finalText).toBe('Four.');
  });
});

describe('authorize (permission rules and approval)', () => {
  it('refuses a denied call with a message the model reads, and the tool never runs', async () => {
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([toolCallStep('add', { a: 1, b: 2 }), textStep('ok')]);
    const result = await runLoop({
      model,
      messages: [{ role: 'user', content: 'add' }],
      tools: [addTool(executed)],
      maxSteps: 3,
      timeoutMs: 5000,
      authorize: () => ({ behavior: 'deny', message: 'add is denied by the rule Add' }),
    });
    expect(executed).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({
      isError: true,
      output: 'add is denied by the rule Add',
    });
    expect(result.text).toBe('ok');
  });

  it('pauses: the run ends interrupted with the pending call, which has not run', async () => {
    const executed: Array<{ a: number; b: number }> = [];
    const model = scripted([toolCallStep('add', { a: 1, b: 2 })]);
    const events: LoopEvent[] = [];
    const result = await runLoop({
      model,
      messages: [{ role: 'user', content: 'add' }],
      tools: [addTool(executed)],
      maxSteps: 3,
      timeoutMs: 5000,
      authorize: () => ({ behavior: 'pause', reason: 'no rule allows this add call' }),
      onEvent: (event) => events.push(event),
    });
    expect(executed).toEqual([]);
    expect(result.finishReason).toBe('interrupted');
    expect(result.pending).toEqual([
      {
        toolCallId: 'call_1',
        toolName: 'add',
        input: { a: 1, b: 2 },
        reason: 'no rule allows this add call',
      },
    ]);
    expect(events.some((event) => event.type === 'tool-paused')).toBe(true);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });
});
