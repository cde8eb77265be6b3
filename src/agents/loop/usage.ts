import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import type { TokenUsage } from '../../schema/index.js';

/** Zero tokens, the start of every sum. */
export function emptyUsage(): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/**
 * Converts a provider's usage to cohort's {@link TokenUsage}. Servers that report nothing (some
 * compatible servers omit usage in streams) count as zero rather than failing the run.
 */
export function toTokenUsage(usage: LanguageModelV3Usage | undefined): TokenUsage {
  const prompt = tokenCount(usage?.inputTokens.total);
  const completion = tokenCount(usage?.outputTokens.total);
  return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
}

/**
 * A count of tokens as the server reported it, held to a whole number of at least zero. The count
 * is the server's word: one that sent `-1000000` subtracted that from the run's total, so a
 * subagent's `maxTokens` budget was never reached and the totals reported to clients (traces,
 * `usage` of `/v1/chat/completions`) were negative; `2.5` is rounded.
 */
export function tokenCount(reported: number | undefined): number {
  return reported !== undefined && Number.isFinite(reported) && reported > 0
    ? Math.round(reported)
    : 0;
}

/** Adds `more` into `total` in place and returns it. */
export function addUsage(total: TokenUsage, more: TokenUsage): TokenUsage {
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
  total.totalTokens += more.totalTokens;
  return total;
}
