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
}

/** A zero-latency model that answers from a script; see {@link createScriptedModel}. */
export interface ScriptedModel extends LanguageModelV3 {
  /** How many calls the model has answered. */
  readonly callCount: number;
  /** The options of every call, when created with `record: true`. */
  readonly calls: LanguageModelV3CallOptions[];
}

/**
 * A deterministic model for tests and benchmarks (like the Agents SDK's ScriptedModel): call N
 * answers with step N of the script, or with `script(N, options)`. No network, no timers.
 *
 * @example
 * const model = createScriptedModel([
 *   { toolCalls: [{ toolName: 'search_book_content', input: { query: 'ROS 2' } }] },
 *   { text: 'ROS 2 is a robot framework [1].' },
 * ]);
 */
export function createScriptedModel(
  script:
    readonly ScriptedStep[] | ((call: number, options: LanguageModelV3CallOptions) => ScriptedStep),
  options: { modelId?: string; record?: boolean } = {},
): ScriptedModel {
  let count = 0;
  const calls: LanguageModelV3CallOptions[] = [];
  const next = (callOptions: LanguageModelV3CallOptions): ScriptedStep => {
    const index = count++;
    if (options.record) calls.push(callOptions);
    const step = typeof script === 'function' ? script(index, callOptions) : script[index];
    if (!step) {
      throw new CohortError(
        'internal',
        `The scripted model has no step ${index + 1} (script has ${script.length}).`,
      );
    }
    if (step.error !== undefined) throw step.error;
    return step;
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: options.modelId ?? 'scripted-model',
    supportedUrls: {},
    get callCount() {
      return count;
    },
    calls,
    doGenerate(callOptions) {
      const step = next(callOptions);
      const content: LanguageModelV3Content[] = [];
      const text = Array.isArray(step.text) ? step.text.join('') : step.text;
      if (text) content.push({ type: 'text', text });
      toolCalls(step, count).forEach((call) => content.push(call));
      return Promise.resolve({
        content,
        finishReason: finishReason(step),
        usage: usage(step),
        warnings: [],
      });
    },
    doStream(callOptions) {
      const step = next(callOptions);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      const chunks = Array.isArray(step.text) ? step.text : step.text ? [step.text] : [];
      if (chunks.length > 0) {
        parts.push({ type: 'text-start', id: 't' });
        for (const delta of chunks) parts.push({ type: 'text-delta', id: 't', delta });
        parts.push({ type: 'text-end', id: 't' });
      }
      parts.push(...toolCalls(step, count));
      parts.push({ type: 'finish', usage: usage(step), finishReason: finishReason(step) });
      let i = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          const part = parts[i++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return Promise.resolve({ stream });
    },
  };
}

function toolCalls(step: ScriptedStep, call: number) {
  return (step.toolCalls ?? []).map((toolCall, i) => ({
    type: 'tool-call' as const,
    toolCallId: toolCall.toolCallId ?? `call_${call}_${i}`,
    toolName: toolCall.toolName,
    input: typeof toolCall.input === 'string' ? toolCall.input : JSON.stringify(toolCall.input),
  }));
}

function finishReason(step: ScriptedStep) {
  return step.toolCalls?.length
    ? { unified: 'tool-calls' as const, raw: 'tool_calls' }
    : { unified: 'stop' as const, raw: 'stop' };
}

function usage(step: ScriptedStep): LanguageModelV3Usage {
  const input = step.usage?.inputTokens ?? 10;
  const output = step.usage?.outputTokens ?? 5;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}
