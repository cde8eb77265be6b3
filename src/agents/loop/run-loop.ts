import { GEN_AI } from '../../telemetry/index.js';
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { AssistantContent, ModelMessage } from 'ai';
import { CohortError, isCohortError, refusedValue } from '../../errors/index.js';
import { budgetMessage, stepCapMessage, timeLimitMessage } from './errors.js';
import {
  executeToolCalls,
  parseToolInput,
  toolResultPart,
  type ToolTable,
} from './tool-execution.js';
import { runTurn } from './turn.js';
import type {
  LoopCall,
  LoopEvent,
  LoopFinishReason,
  LoopOptions,
  LoopResult,
  LoopTool,
  LoopToolCall,
  PendingToolCall,
} from './types.js';
import { addUsage, emptyUsage } from './usage.js';

/** A signal that never aborts, for runs without one. */
const NEVER = new AbortController().signal;
/** JSON schemas of tools, computed once per schema object. */
const schemaCache = new WeakMap<object, unknown>();

/**
 * Runs the tool-calling loop and streams its events: each turn calls the model once, then runs
 * the tools it asked for and feeds their results back, until the model answers without a tool
 * call, the step cap or a budget is reached, `stopWhen` halts it, or the signal aborts. The last
 * event is always `finish` with the {@link LoopResult}. Model failures (after retries) throw a
 * `CohortError` (`model_unavailable` or `timeout`).
 *
 * @example
 * for await (const event of runLoopStream({ model, system, messages, tools, maxSteps: 6, timeoutMs: 120_000 })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.text);
 * }
 */
export async function* runLoopStream(options: LoopOptions): AsyncGenerator<LoopEvent, LoopResult> {
  const { maxSteps, budget } = options;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new CohortError(
      'invalid_input',
      `${refusedValue('maxSteps', 'a whole number of at least 1', maxSteps)}.`,
      {
        field: 'maxSteps',
      },
    );
  }
  const tools = options.tools ?? [];
  const table: ToolTable = {
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    allowed: options.allowedTools ? new Set(options.allowedTools) : undefined,
    ...(options.authorize ? { authorize: options.authorize } : {}),
    ...(options.toolTimeoutMs !== undefined ? { timeoutMs: options.toolTimeoutMs } : {}),
  };
  const offered = tools.filter((tool) => !table.allowed || table.allowed.has(tool.name));
  const functionTools = await Promise.all(offered.map(toFunctionTool));
  // The AI SDK loads with the first run: `import('cohort')` does not pay for it.
  const { convertToLanguageModelPrompt, standardizePrompt } = await import('ai/internal');
  const prompt: LanguageModelV3Message[] = await convertToLanguageModelPrompt({
    prompt: await standardizePrompt({
      ...(options.system ? { system: options.system } : {}),
      messages: options.messages,
    }),
    supportedUrls: {},
    download: undefined,
  });
  const messages: ModelMessage[] = [...options.messages];
  // The run's time limit stops what is in flight as a cancellation does, but is reported apart.
  const deadline = budget?.maxMs !== undefined ? AbortSignal.timeout(budget.maxMs) : undefined;
  const signal = deadline
    ? AbortSignal.any([options.signal ?? NEVER, deadline])
    : (options.signal ?? NEVER);
  const usage = emptyUsage();
  const calls: LoopCall[] = [];
  const toolCalls: LoopToolCall[] = [];
  let text = '';
  let step = 0;

  const finish = (
    finishReason: LoopFinishReason,
    stopMessage?: string,
    pending?: PendingToolCall[],
  ): LoopEvent & { type: 'finish' } => ({
    type: 'finish',
    result: {
      text,
      messages,
      steps: step,
      usage,
      calls,
      finishReason,
      toolCalls,
      ...(stopMessage ? { stopMessage } : {}),
      ...(pending ? { pending } : {}),
    },
  });
  const stopped = () =>
    deadline?.aborted && !options.signal?.aborted && budget?.maxMs !== undefined
      ? finish('budget', timeLimitMessage(budget.maxMs, budget.maxMsSetting))
      : finish('aborted', 'The run was cancelled.');
  const end = function* (event: LoopEvent & { type: 'finish' }): Generator<LoopEvent, LoopResult> {
    yield event;
    return event.result;
  };

  for (;;) {
    if (signal.aborted) return yield* end(stopped());
    if (step >= maxSteps) return yield* end(finish('max_steps', stepCapMessage(maxSteps)));
    if (budget?.maxTurns !== undefined && step >= budget.maxTurns) {
      return yield* end(finish('budget', budgetMessage('turns', step, budget.maxTurns)));
    }
    step++;
    yield { type: 'step-start', step };
    let outcome;
    // One span per model call, with the GenAI semantic conventions' names.
    const chat = options.span?.child(`chat ${options.model.modelId}`, {
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.provider]: options.model.provider,
      [GEN_AI.requestModel]: options.model.modelId,
      'cohort.loop.step': step,
    });
    try {
      outcome = yield* runTurn({
        model: options.model,
        call: {
          // A copy: the prompt grows after this call and a model may keep what it was given.
          prompt: prompt.slice(),
          ...(functionTools.length > 0
            ? { tools: functionTools, toolChoice: { type: 'auto' } }
            : {}),
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.maxOutputTokens !== undefined
            ? { maxOutputTokens: options.maxOutputTokens }
            : {}),
        },
        step,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries ?? 2,
        retryDelayMs: options.retryDelayMs,
        signal,
        ...(options.maxOutputChars !== undefined ? { maxOutputChars: options.maxOutputChars } : {}),
      });
    } catch (error) {
      chat?.fail(error);
      chat?.end();
      if (isCohortError(error, 'aborted')) return yield* end(stopped());
      throw error;
    }
    chat?.end({
      [GEN_AI.usageInput]: outcome.usage.promptTokens,
      [GEN_AI.usageOutput]: outcome.usage.completionTokens,
      [GEN_AI.finishReasons]: [outcome.finishReason],
      'cohort.model.attempts': outcome.attempts,
      'cohort.model.tool_calls': outcome.toolCalls.length,
    });
    text = outcome.text;
    addUsage(usage, outcome.usage);
    calls.push({
      step,
      usage: outcome.usage,
      finishReason: outcome.finishReason,
      attempts: outcome.attempts,
    });
    yield {
      type: 'step-finish',
      step,
      usage: outcome.usage,
      finishReason: outcome.finishReason,
      toolCalls: outcome.toolCalls.length,
    };

    const content: Exclude<AssistantContent, string> = [];
    if (outcome.text) content.push({ type: 'text', text: outcome.text });
    const inputs = outcome.toolCalls.map((call) => parseToolInput(call.input));
    outcome.toolCalls.forEach((call, index) => {
      content.push({
        type: 'tool-call',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: inputs[index],
      });
    });
    if (content.length > 0) {
      messages.push({ role: 'assistant', content });
      prompt.push({ role: 'assistant', content } as LanguageModelV3Message);
    }
    if (outcome.toolCalls.length === 0) return yield* end(finish('stop'));

    for (const [index, call] of outcome.toolCalls.entries()) {
      yield {
        type: 'tool-call',
        step,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: inputs[index],
      };
    }
    let executed;
    try {
      executed = await executeToolCalls(outcome.toolCalls, table, signal, options.span);
    } catch (error) {
      if (signal.aborted) return yield* end(stopped());
      throw error;
    }
    const done = executed.filter((call) => call.paused === undefined);
    const results = done.map(toolResultPart);
    if (results.length > 0) {
      messages.push({ role: 'tool', content: results });
      prompt.push({ role: 'tool', content: results as LanguageModelV3ToolResultPart[] });
    }
    for (const call of done) {
      toolCalls.push({ ...call, step });
      yield { type: 'tool-result', step, ...call };
    }
    const pending: PendingToolCall[] = executed.flatMap((call) =>
      call.paused === undefined
        ? []
        : [
            {
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: call.input,
              reason: call.paused,
            },
          ],
    );
    if (pending.length > 0) {
      for (const call of pending) yield { type: 'tool-paused', step, ...call };
      return yield* end(
        finish(
          'interrupted',
          `Waiting for approval of ${pending.map((call) => call.toolName).join(', ')}.`,
          pending,
        ),
      );
    }

    if (budget?.maxTokens !== undefined && usage.totalTokens >= budget.maxTokens) {
      return yield* end(
        finish('budget', budgetMessage('tokens', usage.totalTokens, budget.maxTokens)),
      );
    }
    const halt = options.stopWhen?.({ step, usage, toolCalls });
    if (halt) return yield* end(finish('halted', halt));
  }
}

/**
 * Runs the tool-calling loop to the end and returns its result; `onEvent` sees every event.
 *
 * @example
 * const result = await runLoop({
 *   model: provider.languageModel('fast'),
 *   system: 'Answer from the book.',
 *   messages: [{ role: 'user', content: 'What is ROS 2?' }],
 *   tools: [searchTool],
 *   maxSteps: 6,
 *   timeoutMs: 120_000,
 * });
 * console.log(result.text, result.usage.totalTokens);
 */
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const events = runLoopStream(options);
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    options.onEvent?.(next.value);
  }
}

async function toFunctionTool(tool: LoopTool): Promise<LanguageModelV3FunctionTool> {
  let inputSchema: unknown = tool.inputJsonSchema ?? schemaCache.get(tool.inputSchema);
  if (!inputSchema) {
    const { asSchema } = await import('ai');
    inputSchema = await asSchema(tool.inputSchema).jsonSchema;
    schemaCache.set(tool.inputSchema, inputSchema);
  }
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as LanguageModelV3FunctionTool['inputSchema'],
  };
}
