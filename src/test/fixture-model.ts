import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted model answer: text, tool calls, or both, with its token usage. */
export interface FixtureStep {
  text?: string;
  toolCalls?: Array<{ toolName: string; input: unknown }>;
  usage?: { input: number; output: number };
}

/** A MockLanguageModelV3 answering call N with `script(N, options)` and recording every call. */
export function fixtureModel(
  script: (call: number, options: LanguageModelV3CallOptions) => FixtureStep | Promise<FixtureStep>,
  modelId = 'fixture',
) {
  let count = 0;
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    modelId,
    doStream: async (options) => {
      calls.push(options);
      const index = count++;
      const step = await script(index, options);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (step.text) {
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: step.text },
          { type: 'text-end', id: 't' },
        );
      }
      (step.toolCalls ?? []).forEach((call, i) =>
        parts.push({
          type: 'tool-call',
          toolCallId: `${modelId}_${index}_${i}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        }),
      );
      const input = step.usage?.input ?? 100;
      const output = step.usage?.output ?? 20;
      parts.push({
        type: 'finish',
        usage: {
          inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: output, text: output, reasoning: 0 },
        },
        finishReason: step.toolCalls?.length
          ? { unified: 'tool-calls', raw: 'tool_calls' }
          : { unified: 'stop', raw: 'stop' },
      });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

/** The tool names a recorded call offered the model. */
export const offeredTools = (options: LanguageModelV3CallOptions | undefined) =>
  (options?.tools ?? []).map((tool) => tool.name).sort();

/** Everything a recorded call sent the model, as one string for `toContain` checks. */
export const promptText = (options: LanguageModelV3CallOptions | undefined) =>
  JSON.stringify(options?.prompt ?? []);
