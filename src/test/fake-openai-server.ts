import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of `/v1/chat/completions`. */
export type ChatReply =
  /** Text, streamed in `pieces` deltas when the request streams. */
  | { kind: 'text'; text: string; pieces?: number; usage?: { prompt: number; completion: number } }
  /** Several tool calls in one answer (each an SSE chunk when streaming). */
  | {
      kind: 'tool_calls';
      calls: Array<{ name: string; arguments: string }>;
      usage?: { prompt: number; completion: number };
    }
  /** One tool call whose JSON arguments are split over `pieces` SSE chunks. */
  | {
      kind: 'tool_call';
      name: string;
      arguments: string;
      pieces?: number;
      id?: string;
      usage?: { prompt: number; completion: number };
    }
  /** An HTTP error status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  /** Accepts the request and never answers (until the client gives up). */
  | { kind: 'hang' }
  /** A 200 whose body is not valid JSON (a broken SSE event when streaming). */
  | { kind: 'malformed' }
  /**
   * A 200 that starts an answer and never ends its line (nor its JSON, nor its SSE event): `a`s
   * written as fast as the client reads them, until the client closes or `stopAfterBytes` (then it
   * hangs), so a client without a byte cap is not run out of memory by its own test.
   */
  | { kind: 'endless'; stopAfterBytes?: number };

/** One scripted answer of `/v1/embeddings`. */
export type EmbeddingReply =
  | { kind: 'vectors'; dimensions?: number }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' };

/** A request the server received. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** A running fake server. */
export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Connections the client closed before the server answered (cancellation, timeouts). */
  readonly clientAborts: number;
  /** Bytes of `endless` answers written so far, all requests together. */
  readonly endlessBytes: number;
  /** Resolves the next time a client closes a connection before its answer. */
  nextClientAbort(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an OpenAI-compatible server on 127.0.0.1 that answers from a script, in the real wire
 * format: JSON bodies, or SSE (`data: {...}\n\n` … `data: [DONE]`) when the request streams.
 * Replies are used in order; when a script runs out the server answers 400 so the test fails
 * loudly. Embedding vectors are derived from the text, so equal texts get equal vectors.
 *
 * @example
 * const server = await startFakeOpenAI({ chat: [{ kind: 'status', status: 500 }, { kind: 'text', text: 'Hi' }] });
 * const config = loadConfig({ env: { OPENAI_BASE_URL: server.baseUrl } });
 */
export async function startFakeOpenAI(
  script: {
    /** Replies in order, or a function choosing each (the request's body, its index). */
    chat?: ChatReply[] | ((body: Record<string, unknown>, index: number) => ChatReply);
    embeddings?: EmbeddingReply[];
  } = {},
): Promise<FakeOpenAI> {
  const chosen = script.chat;
  const chat = Array.isArray(chosen) ? [...chosen] : [];
  let chatIndex = 0;
  const nextChat = (body: Record<string, unknown>) =>
    typeof chosen === 'function' ? chosen(body, chatIndex++) : chat.shift();
  const embeddings = [...(script.embeddings ?? [])];
  const requests: RecordedRequest[] = [];
  let clientAborts = 0;
  const endless = { bytes: 0 };
  let waiters: Array<() => void> = [];

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = { raw };
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ path, headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) {
          clientAborts++;
          const woken = waiters;
          waiters = [];
          woken.forEach((wake) => wake());
        }
      });
      if (path.endsWith('/chat/completions')) answerChat(nextChat(body), body, res, endless);
      else if (path.endsWith('/embeddings')) answerEmbeddings(embeddings.shift(), body, res);
      else sendError(res, 404, `no route ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get clientAborts() {
      return clientAborts;
    },
    get endlessBytes() {
      return endless.bytes;
    },
    nextClientAbort: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answerChat(
  reply: ChatReply | undefined,
  body: Record<string, unknown>,
  res: ServerResponse,
  endless: { bytes: number },
) {
  if (!reply) return sendError(res, 400, 'the fake server has no scripted chat reply left');
  if (reply.kind === 'hang') return;
  if (reply.kind === 'endless') return answerEndless(body.stream === true, res, endless, reply);
  if (reply.kind === 'status')
    return sendError(res, reply.status, reply.message ?? 'scripted failure', reply.headers);
  const model = typeof body.model === 'string' ? body.model : 'fake-model';
  const stream = body.stream === true;
  if (reply.kind === 'malformed') {
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"id": "x", "choices": [oops\n\ndata: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": "x", "choices": [oops');
    }
    return;
  }
  const usage = reply.usage ?? { prompt: 12, completion: 8 };
  const usageBody = {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
  const id = 'chatcmpl-fake';
  const created = Math.floor(Date.now() / 1000);
  if (!stream) {
    const message =
      reply.kind === 'text'
        ? { role: 'assistant', content: reply.text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: callsOf(reply).map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    const finish = reply.kind === 'text' ? 'stop' : 'tool_calls';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: usageBody,
      }),
    );
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
  const events: string[] = [];
  if (reply.kind === 'text') {
    events.push(
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    );
    for (const piece of split(reply.text, reply.pieces ?? 3)) {
      events.push(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
    }
    events.push(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
  } else if (reply.kind === 'tool_calls') {
    callsOf(reply).forEach((call, index) => {
      const delta = {
        ...(index === 0 ? { role: 'assistant', content: null } : {}),
        tool_calls: [{ index, id: call.id, type: 'function', function: call }],
      };
      events.push(chunk([{ index: 0, delta, finish_reason: null }]));
    });
    events.push(chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]));
  } else {
    const callId = reply.id ?? 'call_1';
    events.push(
      chunk([
        {
          index: 0,
          delta: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index: 0,
                id: callId,
                type: 'function',
                function: { name: reply.name, arguments: '' },
              },
            ],
          },
          finish_reason: null,
        },
      ]),
    );
    for (const piece of split(reply.arguments, reply.pieces ?? 4)) {
      events.push(
        chunk([
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
            finish_reason: null,
          },
        ]),
      );
    }
    events.push(chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]));
  }
  events.push(chunk([], { usage: usageBody }));
  events.push('data: [DONE]\n\n');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  // One write per event, a tick apart, so the client really receives the stream in pieces.
  const writeNext = () => {
    const event = events.shift();
    if (event === undefined) return void res.end();
    if (res.destroyed) return;
    res.write(event);
    setImmediate(writeNext);
  };
  writeNext();
}

/** The tool calls of a `tool_call` or `tool_calls` reply, with their ids. */
function callsOf(
  reply: Extract<ChatReply, { kind: 'tool_call' | 'tool_calls' }>,
): Array<{ id: string; name: string; arguments: string }> {
  if (reply.kind === 'tool_call')
    return [{ id: reply.id ?? 'call_1', name: reply.name, arguments: reply.arguments }];
  return reply.calls.map((call, index) => ({ id: `call_${index + 1}`, ...call }));
}

/** Writes an answer whose line never ends, as fast as the client reads it (see `endless`). */
function answerEndless(
  stream: boolean,
  res: ServerResponse,
  endless: { bytes: number },
  reply: { stopAfterBytes?: number },
) {
  const stopAfter = reply.stopAfterBytes ?? 64 * 1024 * 1024;
  res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
  const start = stream
    ? 'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"'
    : '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"';
  const block = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  const send = (chunk: Buffer) => {
    sent += chunk.length;
    endless.bytes += chunk.length;
    return res.write(chunk);
  };
  const pump = () => {
    while (!res.destroyed && sent < stopAfter) {
      if (!send(block)) return void res.once('drain', pump);
    }
  };
  send(Buffer.from(start));
  pump();
}

function answerEmbeddings(
  reply: EmbeddingReply | undefined,
  body: Record<string, unknown>,
  res: ServerResponse,
) {
  const chosen = reply ?? { kind: 'vectors' };
  if (chosen.kind === 'hang') return;
  if (chosen.kind === 'status')
    return sendError(res, chosen.status, chosen.message ?? 'scripted failure');
  const input = Array.isArray(body.input)
    ? (body.input as unknown[]).map(String)
    : [String(body.input ?? '')];
  const dimensions = chosen.dimensions ?? 8;
  const data = input.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: vectorOf(text, dimensions),
  }));
  const tokens = input.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      object: 'list',
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }),
  );
}

/** A deterministic unit-length vector from character codes. */
export function vectorOf(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let i = 0; i < text.length; i++)
    vector[i % dimensions] = (vector[i % dimensions] ?? 0) + text.charCodeAt(i);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type: 'server_error', code: null } }));
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => resolve(raw));
    req.on('error', reject);
  });
}
