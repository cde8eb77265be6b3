import type {
  AgentSummary,
  ChatResponse,
  Citation,
  Message,
  RouteResponse,
  Wire,
} from '../../schema/index.js';
import type { TraceView } from '../../telemetry/trace-view.js';
import type { HealthResponse } from '../api-schemas.js';
import { readSseEvents } from './sse-parser.js';

// The wire types are derived from the zod schemas the server validates and answers with, so the
// page cannot drift from the API (type-only imports: nothing of them is bundled).

/** A citation as the API sends it (snake_case). */
export type WireCitation = Wire<Citation>;

/** The routing decision of the `route` event and of `POST /route`. */
export type WireRoute = Wire<RouteResponse>;

/** The final answer of the `done` event and of `POST /chat`. */
export type WireChatResponse = Wire<ChatResponse>;

/** One message of a session's history. */
export type WireMessage = Wire<Message>;

/** An agent of `GET /agents`. */
export type WireAgent = Wire<AgentSummary>;

/** Server health (`GET /healthz`). */
export type WireHealth = Wire<HealthResponse>;

/** A run's trace (`GET /runs/:id/trace`): its spans with the totals and the routing decision. */
export type WireTrace = Wire<TraceView>;

/** One recorded span of a {@link WireTrace}; its attributes keep their OpenTelemetry names. */
export type WireTraceSpan = WireTrace['spans'][number];

/** An error the API answered with, or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** What a streamed answer reports, in order. */
export interface StreamHandlers {
  route(route: WireRoute): void;
  delta(text: string): void;
  citations(citations: WireCitation[]): void;
  done(response: WireChatResponse): void;
}

const KEY_STORAGE = 'cohort.apiKey';

/** The API key the user entered (for servers started with COHORT_API_KEY). */
export const apiKey = {
  get: (): string => localStorage.getItem(KEY_STORAGE) ?? '',
  set: (key: string) => localStorage.setItem(KEY_STORAGE, key),
};

function headers(json: boolean): HeadersInit {
  const key = apiKey.get();
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(key ? { authorization: `Bearer ${key}` } : {}),
  };
}

async function failureOf(response: Response): Promise<ApiFailure> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return new ApiFailure(
      response.status,
      body.error?.code ?? 'error',
      body.error?.message ?? `The server answered ${response.status}.`,
    );
  } catch {
    return new ApiFailure(response.status, 'error', `The server answered ${response.status}.`);
  }
}

/** A request to the API with the saved key; an error status rejects with an {@link ApiFailure}. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: headers(init.body !== undefined) });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiFailure(0, 'network', 'Could not reach the server. Is `cohort serve` running?');
  }
  if (!response.ok) throw await failureOf(response);
  return response;
}

/** `GET` a JSON resource. */
export async function getJson<T>(path: string): Promise<T> {
  return (await (await request(path)).json()) as T;
}

/** A session's history, or none when the server has never seen the session. */
export async function loadHistory(sessionId: string): Promise<WireMessage[]> {
  try {
    return (await getJson<{ messages: WireMessage[] }>(`/sessions/${sessionId}/messages`)).messages;
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return [];
    throw error;
  }
}

/** The recorded trace of an answer (its `query_id`) or a research run (its `run_id`). */
export function loadTrace(runId: string): Promise<WireTrace> {
  return getJson<WireTrace>(`/runs/${encodeURIComponent(runId)}/trace`);
}

/** One event of a cohort stream, its JSON data parsed. */
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/**
 * POSTs `body` to a streaming endpoint and yields its events, their data parsed. An error status
 * or an `error` event rejects with an {@link ApiFailure}; `what` names the stream in the message
 * when the server sends none.
 */
export async function* postEventStream(
  path: string,
  body: unknown,
  signal: AbortSignal,
  what: string,
): AsyncGenerator<StreamEvent> {
  const response = await request(path, { method: 'POST', body: JSON.stringify(body), signal });
  if (!response.body) throw new ApiFailure(0, 'network', `The server sent no ${what} stream.`);
  for await (const event of readSseEvents(response.body)) {
    const data = JSON.parse(event.data) as Record<string, unknown>;
    if (event.event === 'error') {
      const error = data.error as { code: string; message: string };
      throw new ApiFailure(200, error.code, error.message);
    }
    yield { event: event.event, data };
  }
}

/**
 * Asks a question over `POST /chat/stream`, reading the Server-Sent Events with fetch and a
 * ReadableStream and calling `on` for each. An `error` event, an error status or a stream that
 * ends without `done` rejects with an {@link ApiFailure}.
 */
export async function streamChat(
  body: { query: string; session_id: string },
  on: StreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  for await (const { event, data } of postEventStream('/chat/stream', body, signal, 'answer')) {
    if (event === 'route') on.route(data as unknown as WireRoute);
    if (event === 'delta') on.delta(String(data.text ?? ''));
    if (event === 'citations') on.citations(data.citations as WireCitation[]);
    if (event === 'done') {
      on.done(data as unknown as WireChatResponse);
      return;
    }
  }
  throw new ApiFailure(0, 'network', 'The answer stopped before it was complete. Try again.');
}
