import { CohortError } from '../errors/index.js';
import {
  MAX_HISTORY_MESSAGES,
  TokenUsage,
  type ChatResponse,
  type Citation,
  type Message,
} from '../schema/index.js';
import { formatSourcesFooter, hasSourcesFooter } from '../citations/index.js';
import type { ChatCompletion, ChatCompletionRequest, OpenAiMessage } from './openai-schemas.js';

/** The model name that lets the router choose the agent; any agent's name forces that agent. */
export const ROUTED_MODEL = 'cohort';

/** The text of an OpenAI message: its string content, or its text parts joined. */
export function messageText(message: OpenAiMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!message.content) return '';
  return message.content
    .map((part) => (part.type === 'text' && part.text ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** What a completion request asks: the query, the session it belongs to and its prior turns. */
export interface CompletionTurn {
  query: string;
  /**
   * What names the session (`user:<user>` or `conversation:<first turns>`); the route turns it
   * into a session id with a keyed hash, so nobody can compute another user's id. Absent for the
   * anonymous session.
   */
  sessionName?: string;
  /** `anonymous` until the route derives the id from {@link CompletionTurn.sessionName}. */
  sessionId: string;
  /** Earlier user/assistant turns of the request, to seed a session the store does not know yet. */
  history: Message[];
}

/**
 * Reads a completion request as one assistant turn. The last user message is the query; the
 * user/assistant messages before it are the history. The session is named by `user` when given,
 * else by the history itself (so the same conversation maps to the same session), else anonymous
 * (no history). System messages are ignored: each agent has its own prompt.
 *
 * @example
 * completionTurn({ model: 'cohort', messages: [{ role: 'user', content: 'What is a topic?' }] });
 */
export function completionTurn(request: ChatCompletionRequest): CompletionTurn {
  const lastUser = request.messages.findLastIndex((message) => message.role === 'user');
  const last = lastUser >= 0 ? request.messages[lastUser] : undefined;
  const query = last ? messageText(last).trim() : '';
  if (!query) {
    throw new CohortError(
      'invalid_input',
      'messages must end with a user message that has text content: it is the question.',
      { field: 'messages' },
    );
  }
  const history: Message[] = request.messages
    .slice(0, lastUser)
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => ({ role: message.role as Message['role'], content: messageText(message) }))
    .filter((message) => message.content.trim() !== '')
    .slice(-MAX_HISTORY_MESSAGES);
  const sessionName = request.user
    ? `user:${request.user}`
    : history.length > 0
      ? `conversation:${JSON.stringify(history)}`
      : undefined;
  return { query, sessionId: 'anonymous', history, ...(sessionName ? { sessionName } : {}) };
}

/** The answer with its Sources footer, adding the footer when the answer does not carry one. */
export function answerWithSources(answer: string, citations: readonly Citation[]): string {
  if (citations.length === 0 || hasSourcesFooter(answer)) return answer;
  return answer + formatSourcesFooter(citations);
}

/** The `cohort` extra field of a completion: which agent answered, and why. */
export function cohortInfo(response: ChatResponse): ChatCompletion['cohort'] {
  return {
    ...(response.agentUsed ? { agent_used: response.agentUsed } : {}),
    ...(response.routingConfidence !== undefined
      ? { routing_confidence: response.routingConfidence }
      : {}),
    ...(response.routingReason ? { routing_reason: response.routingReason } : {}),
    session_id: response.sessionId,
    mode: response.mode,
  };
}

/**
 * An OpenAI `chat.completion` for an assistant answer: the text (with its Sources footer), the
 * citations as an extra field, and token usage when a model reported it.
 */
export function toCompletion(
  response: ChatResponse,
  model: string,
  created: number,
): ChatCompletion {
  return {
    id: `chatcmpl-${response.queryId}`,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answerWithSources(response.answer, response.citations),
        },
        finish_reason: 'stop',
      },
    ],
    usage: completionUsage(response),
    citations: response.citations,
    cohort: cohortInfo(response),
  };
}

/** An answer's token usage in OpenAI's shape: the model's, or zeros for an extractive answer. */
export function completionUsage(response: ChatResponse): ChatCompletion['usage'] {
  const usage = TokenUsage.safeParse(response.metadata.usage);
  return usage.success
    ? {
        prompt_tokens: usage.data.promptTokens,
        completion_tokens: usage.data.completionTokens,
        total_tokens: usage.data.totalTokens,
      }
    : { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
}
