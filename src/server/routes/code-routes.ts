import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import {
  answerCodeRun,
  ApprovalAnswer,
  CODE_SESSION_ID,
  CODE_SESSION_ID_RULE,
  codeSessionRunId,
  noCodingRun,
  startCodeRun,
  type CodingAgentEvent,
  type OpenedCoding,
  type RecordedCodeRun,
} from '../../coding/index.js';
import { CohortError } from '../../errors/index.js';
import { toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { eventStreamResponse, type SendEvent } from '../event-stream.js';
import { readBody } from '../read-body.js';
import { runIdParam } from '../run-id-param.js';
import type { ServerEnv } from '../server-env.js';
import { requireRunAccess } from '../session-access.js';
import { lazySchema } from '../../schema/lazy-schema.js';

/** `POST /code`: one coding request on the server's workspace. */
export const CodeBody = lazySchema(() =>
  z.object({
    request: z.string().trim().min(1, 'request must not be empty').max(20_000),
    skill: z.string().min(1).max(64).optional(),
    /** Continues a coding conversation kept in the store. */
    sessionId: z
      .string()
      .regex(CODE_SESSION_ID, `session_id must be ${CODE_SESSION_ID_RULE}`)
      .optional(),
  }),
);
export type CodeBody = z.infer<typeof CodeBody>;

/** `POST /code/runs/:id/approval`: yes / no / always, for one pending call or (no id) all of them. */
export const ApprovalBody = lazySchema(() =>
  z.object({
    decision: ApprovalAnswer,
    toolCallId: z.string().min(1).optional(),
  }),
);

/** The answer of `/code` and of an approval: the run, its status and the calls waiting on a person. */
export const CodeRunResponse = lazySchema(() =>
  z.object({
    runId: z.string(),
    status: z.string().describe('completed, awaiting_approval, max_steps, budget…'),
    answer: z.string(),
    skill: z.string().nullable(),
    finishReason: z.string(),
    pending: z.array(
      z.object({
        toolCallId: z.string(),
        tool: z.string(),
        input: z.unknown(),
        reason: z.string(),
        always: z.string().describe('The allow rule an "always" answer adds for the session.'),
      }),
    ),
    usage: z.object({
      promptTokens: z.number(),
      completionTokens: z.number(),
      totalTokens: z.number(),
    }),
  }),
);

/** What the code routes need: the coding assistant, its workspace and the run store. */
export interface CodeRouteParts {
  coding: () => OpenedCoding;
  workspace: string;
  store: Pick<Store, 'runs' | 'ping' | 'owners'>;
}

/** The 404 for a coding conversation another API key started (see `requireRunAccess`). */
function noCodingSession(session: string): CohortError {
  return new CohortError(
    'not_found',
    `Coding session "${session}" cannot be continued with this API key: choose another session_id.`,
    { field: 'session_id' },
  );
}

/**
 * Records the caller's API key as the owner of a new coding run, and of its conversation when it
 * starts one; another key's conversation is refused (404) before anything runs.
 */
async function claimCodeRun(
  c: Context<ServerEnv>,
  store: Pick<Store, 'owners'>,
  body: CodeBody,
  runId: string,
): Promise<void> {
  const session = body.sessionId;
  if (session)
    await requireRunAccess(c, store, codeSessionRunId(session), { claim: true }, () =>
      noCodingSession(session),
    );
  await requireRunAccess(c, store, runId, { claim: true }, () => noCodingRun(runId));
}

/** The JSON of a recorded run: its id, status, answer and the calls waiting for approval. */
function codeResponse({ runId, result }: RecordedCodeRun): z.infer<typeof CodeRunResponse> {
  return {
    runId,
    status: result.pending
      ? 'awaiting_approval'
      : result.finishReason === 'stop'
        ? 'completed'
        : result.finishReason,
    answer: result.text,
    skill: result.activation.skill?.name ?? null,
    finishReason: result.finishReason,
    pending: (result.pending ?? []).map((call) => ({
      toolCallId: call.toolCallId,
      tool: call.tool,
      input: call.input,
      reason: call.reason,
      always: call.always,
    })),
    usage: result.totalUsage,
  };
}

/**
 * Runs `run` and yields its agent events as they come, then the recorded run; the events of a
 * run that fails end with the error thrown to the stream.
 */
async function* withEvents(
  run: (onEvent: (event: CodingAgentEvent) => void) => Promise<RecordedCodeRun>,
): AsyncGenerator<CodingAgentEvent | { type: 'recorded'; run: RecordedCodeRun }> {
  const queue: Array<CodingAgentEvent> = [];
  let wake: (() => void) | undefined;
  let done: RecordedCodeRun | undefined;
  let failure: unknown;
  let finished = false;
  void run((event) => {
    queue.push(event);
    wake?.();
  }).then(
    (recorded) => {
      done = recorded;
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      finished = true;
      wake?.();
    },
  );
  for (;;) {
    const next = queue.shift();
    if (next) {
      yield next;
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined) throw failure;
  if (done) yield { type: 'recorded', run: done };
}

/** The SSE events of a coding run: skill, tool calls and results, approval_required, done. */
async function writeCodeEvent(
  event: CodingAgentEvent | { type: 'recorded'; run: RecordedCodeRun },
  send: SendEvent,
  runId: string,
): Promise<void> {
  if (event.type === 'recorded') {
    const response = codeResponse(event.run);
    for (const call of response.pending) await send('approval_required', { runId, ...call });
    await send('done', response);
    return;
  }
  if (event.type === 'skill' && event.activation.skill)
    await send('skill', { name: event.activation.skill.name, reason: event.activation.reason });
  if (event.type === 'text-delta') await send('text', { text: event.text });
  if (event.type === 'tool-call')
    await send('tool_call', {
      toolCallId: event.toolCallId,
      tool: event.toolName,
      input: event.input,
    });
  if (event.type === 'tool-result')
    await send('tool_result', {
      toolCallId: event.toolCallId,
      tool: event.toolName,
      isError: event.isError,
    });
}

/**
 * The coding assistant over HTTP. `POST /code` runs a request and answers with the run: its
 * `run_id`, `status` (`completed`, or `awaiting_approval` with the `pending` calls the permission
 * rules ask about) and `answer`. `POST /code/stream` sends the same as Server-Sent Events
 * (`run_started`, `skill`, `text`, `tool_call`, `tool_result`, `approval_required`, `done`).
 * `POST /code/runs/:id/approval` (and `/approval/stream`) answers a paused run with
 * `{ decision: yes|no|always, tool_call_id? }` and resumes it from the store: any server process
 * sharing the store can answer it, and only one can.
 *
 * @example
 * app.route('/', codeRoutes({ coding: () => openCoding({ config }), workspace: process.cwd(), store }));
 */
export function codeRoutes(parts: CodeRouteParts) {
  const app = new Hono<ServerEnv>();
  const start =
    (body: CodeBody, runId: string, signal: AbortSignal) =>
    (onEvent?: (event: CodingAgentEvent) => void) =>
      startCodeRun(parts.store.runs, {
        ...codingOptions(parts, signal, onEvent),
        request: body.request,
        runId,
        ...(body.skill ? { skill: body.skill } : {}),
        ...(body.sessionId ? { session: body.sessionId } : {}),
      });
  const answer =
    (runId: string, body: z.infer<typeof ApprovalBody>, signal: AbortSignal) =>
    (onEvent?: (event: CodingAgentEvent) => void) =>
      answerCodeRun(
        parts.store.runs,
        runId,
        { [body.toolCallId ?? '*']: body.decision },
        codingOptions(parts, signal, onEvent),
      );

  app.post('/code', async (c) => {
    const body = await readBody(c, CodeBody);
    const runId = randomUUID();
    await claimCodeRun(c, parts.store, body, runId);
    return c.json(toWire(codeResponse(await start(body, runId, c.req.raw.signal)())));
  });

  app.post('/code/stream', async (c) => {
    const body = await readBody(c, CodeBody);
    const runId = randomUUID();
    await claimCodeRun(c, parts.store, body, runId);
    parts.coding(); // a missing model is a plain error status, before the stream starts
    return eventStreamResponse(c, {
      start: (signal) =>
        prefixed({ type: 'run_started' as const, runId }, withEvents(start(body, runId, signal))),
      store: parts.store,
      write: (event, send) =>
        event.type === 'run_started'
          ? send('run_started', { runId })
          : writeCodeEvent(event, send, runId),
    });
  });

  app.post('/code/runs/:id/approval', async (c) => {
    const runId = runIdParam(c);
    const body = await readBody(c, ApprovalBody);
    // Another key's run is answered as an unknown one: no approving a command in its workspace.
    await requireRunAccess(c, parts.store, runId, { claim: false }, () => noCodingRun(runId));
    return c.json(toWire(codeResponse(await answer(runId, body, c.req.raw.signal)())));
  });

  app.post('/code/runs/:id/approval/stream', async (c) => {
    const runId = runIdParam(c);
    const body = await readBody(c, ApprovalBody);
    // Another key's run is answered as an unknown one: no approving a command in its workspace.
    await requireRunAccess(c, parts.store, runId, { claim: false }, () => noCodingRun(runId));
    return eventStreamResponse(c, {
      start: (signal) => withEvents(answer(runId, body, signal)),
      store: parts.store,
      write: (event, send) => writeCodeEvent(event, send, runId),
    });
  });

  return app;
}

function codingOptions(
  parts: CodeRouteParts,
  signal: AbortSignal,
  onEvent: ((event: CodingAgentEvent) => void) | undefined,
) {
  const coding = parts.coding();
  return {
    workspace: parts.workspace,
    config: coding.config,
    model: coding.model,
    signal,
    ...(onEvent ? { onEvent } : {}),
  };
}

async function* prefixed<A, B>(first: A, rest: AsyncIterable<B>): AsyncGenerator<A | B> {
  yield first;
  yield* rest;
}
