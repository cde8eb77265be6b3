import type { LanguageModelV3 } from '@ai-sdk/provider';
import { runLoop } from '../agents/loop/index.js';
import type { SubagentContext, SubagentState } from './subagent-state.js';

/** Rounds of tool calls a research subagent may make before its analysis. */
export const MAX_TOOL_ROUNDS = 3;
/** Characters of one tool result passed on to the analysis. */
export const TOOL_RESULT_CHARS = 2000;

/** The gathering step's instructions. */
export const TOOL_GATHERING_PROMPT = `You are a research subagent gathering facts for one research task before you analyse your sources.
Call the tools that would give facts the task needs and the sources may lack. Call none when they would not help.
When you have what you need, reply with one word: done.`;

/**
 * The tool-gathering step of a research subagent with extra tools (the configured MCP servers'
 * tools the permission rules allow): the analysis model may call them for up to
 * {@link MAX_TOOL_ROUNDS} rounds, and what they returned is handed to the analysis as text. Tool
 * output is hostile like any fetched page: it is capped, and it is context, never instructions.
 * A failed or refused call is left out; a failing step leaves the analysis without tool results.
 *
 * @example
 * const facts = await gatherWithTools(state, context, model, prompt); // '' when no tool was used
 */
export async function gatherWithTools(
  state: SubagentState,
  context: SubagentContext,
  model: LanguageModelV3,
  prompt: string,
): Promise<string> {
  const tools = context.tools ?? [];
  if (tools.length === 0) return '';
  try {
    const result = await runLoop({
      model,
      system: TOOL_GATHERING_PROMPT,
      messages: [{ role: 'user', content: prompt }],
      tools,
      // One more step than the rounds, so the model can say it is done after the last results.
      maxSteps: MAX_TOOL_ROUNDS + 1,
      timeoutMs: context.settings.timeoutLlmCall * 1000,
      maxRetries: context.settings.maxRetries,
      signal: context.signal,
    });
    context.tokens.input += result.usage.promptTokens;
    context.tokens.output += result.usage.completionTokens;
    context.tokens.total += result.usage.totalTokens;
    return result.toolCalls
      .filter((call) => !call.isError)
      .map((call) => {
        const output =
          typeof call.output === 'string' ? call.output : JSON.stringify(call.output ?? null);
        return `- ${call.toolName} ${JSON.stringify(call.input)}:\n${output.slice(0, TOOL_RESULT_CHARS)}`;
      })
      .join('\n');
  } catch (error) {
    context.logger?.warn('research_tools_failed', {
      taskId: context.taskId,
      task: state.taskDescription,
      cause: error instanceof Error ? error.message : String(error),
    });
    return '';
  }
}
