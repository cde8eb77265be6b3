import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Assistant } from '../../assistant/index.js';
import { CohortError, isCohortError } from '../../errors/index.js';
import { toWire, type ChatRequest } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { errorBody, HttpError } from '../api-error.js';
import { clientAbort } from '../client-abort.js';
import { degradedFailure } from '../degraded-answer.js';
import { describeFailure } from '../error-handler.js';
import {
  answerWithSources,
  cohortInfo,
  completionUsage,
  completionTurn,
  ROUTED_MODEL,
  toCompletion,
} from '../openai-adapter.js';
import {
  ChatCompletionRequest,
  type ChatCompletionChunk,
  type ModelList,
} from '../openai-schemas.js';
import { readBody } from '../read-body.js';
import type { ServerEnv } from '../server-env.js';
import { askedBy, derivedSessionId, requireSessionAccess } from '../session-access.js';
import { keyedSingleFlight } from '../single-flight.js';
import { resumeEvents, startEvents } from '../start-events.js';

/**
 * The OpenAI-compatible surface: `POST /v1/chat/completions` (JSON, or `chat.completion.chunk`
 * events ending in `data: [DONE]` with `stream: true`) and `GET /v1/models`. The model `cohort`
 * routes; an agent's name forces that agent.
 *
 * @example
 * const client = new OpenAI({ baseURL: 'http://127.0.0.1:8787/v1', apiKey: 'unused' });
 */
export function openAiRoutes(parts: {
  assistant: Assistant;
  store: Pick<Store, 'ping' | 'sessions' | 'meta'>;
  now?: () => number;
}) {
  const { assistant, store } = parts;
  const seconds = () => Math.floor((parts.now ?? Date.now)() / 1000);
  const app = new Hono<ServerEnv>();
  const seedOnce = keyedSingleFlight<void>();

  app.get('/v1/models', (c) => {
    const created = seconds();
    const model = (id: string) => ({ id, object: 'model' as const, created, owned_by: 'cohort' });
    const body: ModelList = {
      object: 'list',
      data: [ROUTED_MODEL, ...assistant.agents().agents.map((a) => a.name)].map(model),
    };
    return c.json(body);
  });

  app.post('/v1/chat/completions', async (c) => {
    const request = await readBody(c, ChatCompletionRequest, { wire: false });
    const agents = assistant.agents().agents.map((agent) => agent.name);
    if (request.model !== ROUTED_MODEL && !agents.includes(request.model)) {
      throw new CohortError(
        'not_found',
        `Unknown model "${request.model}". Use "${ROUTED_MODEL}" (routed) or an agent: ${agents.join(', ')}.`,
        { field: 'model' },
      );
    }
    const turn = completionTurn(request);
    if (turn.sessionName) {
      turn.sessionId = await derivedSessionId(c, store, turn.sessionName);
      await requireSessionAccess(c, store, turn.sessionId, { claim: true });
    }
    if (turn.sessionId !== 'anonymous' && turn.history.length > 0) {
      const { sessionId, history } = turn;
      // Requests arriving together for one new session seed it once, not once each.
      await seedOnce(sessionId, async () => {
        const known = await store.sessions.history(sessionId, 1);
        if (known.length === 0) await store.sessions.saveTurn(sessionId, history);
      });
    }
    const input: ChatRequest = {
      query: turn.query,
      sessionId: turn.sessionId,
      ...(request.model !== ROUTED_MODEL ? { agent: request.model } : {}),
    };
    const created = seconds();
    // The client leaving stops the run, streamed or not (a non-streamed answer has no stream
    // to notice it).
    const abort = clientAbort(c);
    let started;
    try {
      started = await startEvents(
        assistant.askStream(input, { signal: abort.signal, ...askedBy(c) }),
      );
    } catch (error) {
      // The question travels in `messages`, so that is the field to name.
      if (isCohortError(error, 'invalid_input') && error.field === 'query') {
        throw new CohortError('invalid_input', error.message, { field: 'messages', cause: error });
      }
      throw error;
    }
    if (!request.stream) {
      for await (const event of resumeEvents(started)) {
        if (event.type !== 'done') continue;
        const failure = degradedFailure(event.response);
        if (failure) throw new HttpError(failure);
        return c.json(toWire(toCompletion(event.response, request.model, created)));
      }
      throw new CohortError('internal', 'The assistant finished without an answer.');
    }

    const id = `chatcmpl-${randomUUID()}`;
    const chunk = (
      delta: ChatCompletionChunk['choices'][number]['delta'],
      finish: 'stop' | null = null,
    ): ChatCompletionChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => abort.abort());
      const send = (data: unknown) => stream.writeSSE({ data: JSON.stringify(toWire(data)) });
      try {
        await send(chunk({ role: 'assistant', content: '' }));
        let text = '';
        for await (const event of resumeEvents(started)) {
          if (stream.aborted) return;
          if (event.type === 'delta') {
            text += event.text;
            await send(chunk({ content: event.text }));
          }
          if (event.type === 'done') {
            const failure = degradedFailure(event.response);
            if (failure) {
              await send(errorBody(failure));
              return;
            }
            const full = answerWithSources(text, event.response.citations);
            if (full.length > text.length) await send(chunk({ content: full.slice(text.length) }));
            await send({
              ...chunk({}, 'stop'),
              citations: event.response.citations,
              cohort: cohortInfo(event.response),
            });
            // OpenAI's last chunk when asked: no choices, the whole answer's usage.
            if (request.stream_options?.include_usage)
              await send({ ...chunk({}), choices: [], usage: completionUsage(event.response) });
          }
        }
        await stream.writeSSE({ data: '[DONE]' });
      } catch (error) {
        if (!stream.aborted) {
          await send(errorBody(await describeFailure(error, c, store)));
        }
      }
    });
  });

  return app;
}
