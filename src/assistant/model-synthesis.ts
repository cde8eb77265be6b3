import type { ModelMessage } from 'ai';
import { emptyUsage, runLoopStream, type AgentEvent, type LoopResult } from '../agents/index.js';
import type { CohortConfig } from '../config/index.js';
import { CohortError, isCohortError } from '../errors/index.js';
import type { ModelProvider } from '../models/index.js';
import type { AgentResponse, Citation, TokenUsage } from '../schema/index.js';
import {
  citationLocation,
  createCitationGuard,
  formatSourcesFooter,
  mergeCitations,
  renumberMarkers,
} from '../citations/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { Synthesiser } from './assistant.js';
import { answerBody, mergeResponses, titleFromName, type AgentTitleOf } from './merge-responses.js';

/** How much of each cited passage the synthesis call sees, in characters. */
const PASSAGE_PREVIEW_CHARS = 400;

/** The synthesis instructions (spec R5): merge, keep to the answers, keep the citation numbers. */
export const SYNTHESIS_SYSTEM_PROMPT = `You merge answers written by specialist agents about the book into one answer to the user's question.

RULES:
1. Use ONLY the information in the agents' answers and the listed sources. NEVER add facts.
2. Keep the citation markers [1], [2]… exactly as they appear: they already point at the shared source list.
3. Remove repetition; where the answers disagree, say so and cite both.
4. Do not write a list of sources: it is appended automatically.`;

/** Options of {@link createModelSynthesiser}. */
export interface ModelSynthesiserOptions {
  provider: ModelProvider;
  config: CohortConfig;
  logger?: Logger;
  /** First retry backoff in milliseconds (tests shorten it). */
  retryDelayMs?: number;
}

/**
 * The model-backed multi-domain synthesis (spec R5): one call on the `full` tier merges the
 * agents' answers into one, with their citations merged, de-duplicated (by chunk id, or source and
 * section) and renumbered; markers the model invents are removed and recorded in
 * `metadata.ungrounded_citations`. A single usable answer passes through without a call; if the
 * synthesis call fails, the answers are merged without a model (`metadata.synthesis = 'fallback'`).
 *
 * @example
 * const synthesiser = createModelSynthesiser({ provider, config });
 * for await (const event of synthesiser.synthesise(query, [hardware, capstone], deps)) { ... }
 */
export function createModelSynthesiser(options: ModelSynthesiserOptions): Synthesiser {
  return {
    async *synthesise(query, parts, dependencies, titleOf = titleFromName) {
      const logger = dependencies.logger ?? options.logger ?? silentLogger;
      const answered = parts.filter((part) => part.sources.length > 0 && !part.metadata.error);
      if (answered.length <= 1) {
        const only = answered[0] ?? mergeResponses(parts, { titleOf });
        yield { type: 'delta', text: only.response };
        yield { type: 'response', response: only };
        return;
      }
      const { citations, renumber } = mergeCitations(answered.map((part) => part.sources));
      const bodies = answered.map((part, i) =>
        renumberMarkers(answerBody(part), renumber[i] ?? new Map()),
      );
      const modelId = options.provider.resolveModelId('full');
      const guard = createCitationGuard((n) => n >= 1 && n <= citations.length);
      let shown = '';
      let result: LoopResult | undefined;
      try {
        const events = runLoopStream({
          model: options.provider.languageModel('full'),
          system: SYNTHESIS_SYSTEM_PROMPT,
          messages: synthesisMessages(query, answered, bodies, citations, titleOf),
          maxSteps: 1,
          timeoutMs: options.config.model.timeoutSeconds * 1000,
          maxRetries: options.config.model.maxRetries,
          ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
          ...(options.config.model.temperature !== undefined
            ? { temperature: options.config.model.temperature }
            : {}),
          ...(dependencies.signal ? { signal: dependencies.signal } : {}),
          ...(dependencies.span ? { span: dependencies.span } : {}),
        });
        for await (const event of events) {
          if (event.type === 'text-delta') {
            const text = guard.push(event.text);
            if (text) {
              shown += text;
              yield { type: 'delta', text };
            }
          } else if (event.type === 'finish') {
            result = event.result;
          }
        }
      } catch (error) {
        if (isCohortError(error, 'aborted')) throw error;
        logger.warn('synthesis_failed', {
          model: modelId,
          code: isCohortError(error) ? error.code : 'model_unavailable',
          message: error instanceof Error ? error.message : String(error),
        });
        yield* fallback(answered, titleOf);
        return;
      }
      if (!result || result.finishReason === 'aborted')
        throw new CohortError('aborted', 'The question was cancelled.');
      const tail = guard.flush();
      if (tail) {
        shown += tail;
        yield { type: 'delta', text: tail };
      }
      const body = shown.trim();
      if (!body) {
        logger.warn('synthesis_empty', { model: modelId });
        yield* fallback(answered, titleOf);
        return;
      }
      if (guard.cited().length === 0 && guard.ungrounded().length > 0) {
        // Every marker named a passage it was not given: the agents' own answers are grounded.
        logger.warn('synthesis_uncited', { model: modelId, ungrounded: guard.ungrounded() });
        yield* fallback(answered, titleOf);
        return;
      }
      const sources = guard
        .cited()
        .map((n, i) => ({ ...(citations[n - 1] as Citation), index: i + 1 }));
      const footer = formatSourcesFooter(sources);
      if (footer) yield { type: 'delta', text: footer };
      const response: AgentResponse = {
        response: body + footer,
        sources,
        // A registered agent's name (data-model spec, AgentResponse), the route's primary agent as
        // `agent_used` says, not "hardware+capstone"; every agent run is in `metadata.agents`.
        agentName: (parts[0] as AgentResponse).agentName,
        confidence: Math.max(...answered.map((part) => part.confidence ?? 0)),
        metadata: {
          mode: 'model',
          model: modelId,
          body,
          synthesis: 'model',
          agents: parts.map((part) => part.agentName),
          usage: totalUsage([...answered.map((part) => part.metadata.usage), result.usage]),
          synthesisUsage: result.usage,
          calls: result.calls,
          ungrounded_citations: guard.ungrounded(),
        },
      };
      yield { type: 'response', response } satisfies AgentEvent;
    },
  };
}

/** Merges without a model when the synthesis call fails or says nothing. */
function* fallback(parts: readonly AgentResponse[], titleOf: AgentTitleOf): Generator<AgentEvent> {
  const merged = mergeResponses(parts, { titleOf });
  const response = {
    ...merged,
    metadata: { ...merged.metadata, mode: 'model', synthesis: 'fallback' },
  };
  // Text streamed before a failure is superseded by this complete answer.
  yield { type: 'delta', text: response.response };
  yield { type: 'response', response };
}

function synthesisMessages(
  query: string,
  parts: readonly AgentResponse[],
  bodies: readonly string[],
  citations: readonly Citation[],
  titleOf: AgentTitleOf,
): ModelMessage[] {
  // The title, not the id: the model may name the part it quotes, and a reader sees that name.
  const answers = parts
    .map((part, i) => `### Answer from the ${titleOf(part.agentName)} agent\n${bodies[i] ?? ''}`)
    .join('\n\n');
  const sources = citations
    .map(
      (c) =>
        `[${c.index}] ${citationLocation(c)}: ${(c.text ?? '').slice(0, PASSAGE_PREVIEW_CHARS)}`,
    )
    .join('\n');
  return [
    {
      role: 'user',
      content: `Question: ${query}\n\n${answers}\n\n### Sources\n${sources}\n\nWrite one answer to the question.`,
    },
  ];
}

function totalUsage(usages: unknown[]): TokenUsage {
  const total: TokenUsage = emptyUsage();
  for (const usage of usages) {
    if (!usage || typeof usage !== 'object') continue;
    const u = usage as Partial<TokenUsage>;
    total.promptTokens += u.promptTokens ?? 0;
    total.completionTokens += u.completionTokens ?? 0;
    total.totalTokens += u.totalTokens ?? 0;
  }
  return total;
}
