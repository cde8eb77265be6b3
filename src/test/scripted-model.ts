import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { CohortError } from '../errors/index.js';

/** What a scripted model answers on one call: text (whole or in chunks), tool calls, or an error. */
export interface ScriptedStep {
  /** The answer text; an array streams one delta per element. */
  text?: string | string[];
  toolCalls?: Array<{ toolName: string; input: unknown; toolCallId?: string }>;
  usage?: { inputTokens: number; outputTokens: number };
  /** Thrown by the call instead of answering (to test retries and failures). */
  error?: unknown;
  /** Waits this long before answering; the call's abort signal ends the wait with an error. */
  delayMs?: number;
  /** Raw stream parts, sent as they are (tests of the stream protocol: an error mid-stream). */
  parts?: LanguageModelV3StreamPart[];
}

/** A script: step N answers call N, or a function (sync or async) of the call number and options. */
export type Script =
  | readonly ScriptedStep[]
  | ((call: number, options: LanguageModelV3CallOptions) => ScriptedStep | Promise<ScriptedStep>);

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  modelId?: string;
  /** Keep every call's options in `calls` (off for benchmarks, which make many calls). */
  record?: boolean;
  /** Token usage of a step that gives none (default 10 in, 5 out). */
  usage?: { inputTokens: number; outputTokens: number };
}

/** A zero-latency model that answers from a script; see {@link createScriptedModel}. */
export interface ScriptedModel extends LanguageModelV3 {
  /** How many calls the model has answered. */
  readonly callCount: number;
  /** The options of every call, when created with `record: true`. */
  readonly calls: LanguageModelV3CallOptions[];
}

/**
 * The one model double of the project, for tests and benchmarks (like the Agents SDK's
 * ScriptedModel): call N answers with step N of the script, or with `script(N, options)`, streamed
 * or generated. No network; no timers unless a step asks for a delay.
 *
 * @example
 * const model = createScriptedModel([
 *   { toolCalls: [{ toolName: 'search_book_content', input: { query: 'ROS 2' } }] },
 *   { text: 'ROS 2 is a robot framework [1].' },
 * ]);
 */
export function createScriptedModel(
  script: Script,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  let count = 0;
  const calls: LanguageModelV3CallOptions[] = [];
  const modelId = options.modelId ?? 'scripted-model';
  const usage = (step: ScriptedStep) => usageOf(step.usage ?? options.usage);
  const next = async (callOptions: LanguageModelV3CallOptions) => {
    const index = count++;
    if (options.record) calls.push(callOptions);
    const step = typeof script === 'function' ? await script(index, callOptions) : script[index];
    if (!step) {
      throw new CohortError(
        'internal',
        `The scripted model has no step ${index + 1} (script has ${script.length}).`,
      );
    }
    if (step.delayMs) await delay(step.delayMs, callOptions.abortSignal);
    if (step.error !== undefined) throw step.error;
    return { step, index };
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId,
    supportedUrls: {},
    get callCount() {
      return count;
    },
    calls,
    async doGenerate(callOptions) {
      const { step, index } = await next(callOptions);
      if (step.parts) throw new CohortError('internal', 'Raw stream parts can only be streamed.');
      const content: LanguageModelV3Content[] = [];
      const text = Array.isArray(step.text) ? step.text.join('') : step.text;
      if (text) content.push({ type: 'text', text });
      toolCalls(step, modelId, index).forEach((call) => content.push(call));
      return { content, finishReason: finishReason(step), usage: usage(step), warnings: [] };
    },
    async doStream(callOptions) {
      const { step, index } = await next(callOptions);
      const parts = step.parts ? [...step.parts] : streamParts(step, modelId, index, usage(step));
      let i = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          const part = parts[i++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

/** The stream of a step: its text deltas, tool calls and finish. */
function streamParts(
  step: ScriptedStep,
  modelId: string,
  index: number,
  usage: LanguageModelV3Usage,
): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  const chunks = Array.isArray(step.text) ? step.text : step.text ? [step.text] : [];
  if (chunks.length > 0) {
    parts.push({ type: 'text-start', id: 't' });
    for (const delta of chunks) parts.push({ type: 'text-delta', id: 't', delta });
    parts.push({ type: 'text-end', id: 't' });
  }
  parts.push(...toolCalls(step, modelId, index));
  parts.push({ type: 'finish', usage, finishReason: finishReason(step) });
  return parts;
}

/** Waits `ms`, failing early when `signal` aborts (a model call cut off by its deadline). */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

// Ids carry the model id, so the calls of a main agent and its subagents never share one.
function toolCalls(step: ScriptedStep, modelId: string, call: number) {
  return (step.toolCalls ?? []).map((toolCall, i) => ({
    type: 'tool-call' as const,
    toolCallId: toolCall.toolCallId ?? `${modelId}_${call}_${i}`,
    toolName: toolCall.toolName,
    input: typeof toolCall.input === 'string' ? toolCall.input : JSON.stringify(toolCall.input),
  }));
}

function finishReason(step: ScriptedStep) {
  return step.toolCalls?.length
    ? { unified: 'tool-calls' as const, raw: 'tool_calls' }
    : { unified: 'stop' as const, raw: 'stop' };
}

function usageOf(given: ScriptedStep['usage']): LanguageModelV3Usage {
  const input = given?.inputTokens ?? 10;
  const output = given?.outputTokens ?? 5;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** The tool names a recorded call offered the model, sorted. */
export const offeredTools = (options: LanguageModelV3CallOptions | undefined) =>
  (options?.tools ?? []).map((tool) => tool.name).sort();

/**
 * Everything a recorded call sent the model as one string, system prompt included: text parts as
 * they are, other parts (tool calls and results) as JSON. For `toContain` checks and for scripts
 * that answer by what they were asked.
 */
export function promptText(options: LanguageModelV3CallOptions | undefined): string {
  return (options?.prompt ?? [])
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content
            .map((part) => (part.type === 'text' ? part.text : JSON.stringify(part)))
            .join('\n'),
    )
    .join('\n');
}

/** Options for tests that read what the model was sent: every call recorded, 100 tokens in and 20 out. */
export const RECORDED: ScriptedModelOptions = {
  record: true,
  usage: { inputTokens: 100, outputTokens: 20 },
};
