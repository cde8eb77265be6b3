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
  const prompt = usage?.inputTokens.total ?? 0;
  const completion = usage?.outputTokens.total ?? 0;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
}

/** Adds `more` into `total` in place and returns it. */
export function addUsage(total: TokenUsage, more: TokenUsage): TokenUsage {
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
  total.totalTokens += more.totalTokens;
  return total;
}
