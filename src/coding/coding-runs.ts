import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import * as z from 'zod';
import { CohortError } from '../errors/index.js';
import type { RunRepo } from '../store/index.js';
import { startTrace, type SpanCollector, type TraceSpan } from '../telemetry/index.js';
import type { ApprovalAnswer } from './coding-permissions.js';
import {
  runCodingAgent,
  type CodingAgentOptions,
  type CodingAgentResult,
  type CodingRunState,
} from './coding-agent.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** `runs.kind` of a coding run (one request; paused runs wait here for an answer). */
export const CODE_RUN_KIND = 'code';
/** `runs.kind` of a coding conversation (`--session`, the API's `session_id`). */
export const CODE_SESSION_KIND = 'code-session';
/** `runs.status` of a run that waits for a person. */
export const AWAITING_APPROVAL = 'awaiting_approval';

const SessionOutput = lazySchema(() => z.object({ messages: z.array(z.unknown()) }));
const RunInput = lazySchema(() =>
  z.object({
    request: z.string(),
    skill: z.string().optional(),
    session: z.string().optional(),
    /** How many messages of the session the run started from (its turn is what follows them). */
    historyLength: z.number().int().min(0).optional(),
  }),
);
const RunOutput = lazySchema(() => z.object({ state: z.unknown() }));

/** The run id a coding conversation is stored under (its owner is recorded against it too). */
export const codeSessionRunId = (session: string) => `${CODE_SESSION_KIND}:${session}`;

/** What a coding session id may be, over HTTP (`session_id`) and on the command line (`--session`). */
export const CODE_SESSION_ID = /^[\w.-]{1,100}$/;
/** What {@link CODE_SESSION_ID} allows, in words. */
export const CODE_SESSION_ID_RULE = '1-100 letters, digits, dots, dashes or underscores';

/** The `not_found` of a coding run that is not there (or, over HTTP, is another API key's). */
export function noCodingRun(runId: string): CohortError {
  return new CohortError('not_found', `No coding run "${runId}".`, { field: 'run_id' });
}

/**
 * The conversation of a coding session so far (empty for a new one): every message, tool calls
 * included, so an active skill sees the whole conversation.
 *
 * @example
 * const history = await loadCodeSession(store.runs, 'refactor-1');
 */
export async function loadCodeSession(runs: RunRepo, session: string): Promise<ModelMessage[]> {
  const record = await runs.get(codeSessionRunId(session));
  if (!record) return [];
  const parsed = SessionOutput.safeParse(record.output);
  return parsed.success ? (parsed.data.messages as ModelMessage[]) : [];
}

/**
 * Saves a coding session's conversation after a turn. With `after` (how many messages of the
 * session the turn started from), only the turn's own messages, `messages.slice(after)`, are
 * appended to what the store holds, in one statement: turns of one session answered at once each
 * keep theirs (three concurrent `POST /code` in one session were all answered, and the session
 * kept only the last one saved). Without it the conversation is written whole.
 *
 * @example
 * await saveCodeSession(store.runs, 's1', result.messages, { after: history.length });
 */
export async function saveCodeSession(
  runs: RunRepo,
  session: string,
  messages: ModelMessage[],
  options: { after?: number } = {},
): Promise<void> {
  const run = { id: codeSessionRunId(session), kind: CODE_SESSION_KIND, status: 'open' };
  if (options.after !== undefined) {
    await runs.appendToList(
      { ...run, input: { session } },
      'messages',
      messages.slice(options.after),
    );
    return;
  }
  await runs.put({ ...run, input: { session }, output: { messages } });
}

/** What a recorded coding run returns: its id and the agent's result. */
export interface RecordedCodeRun {
  runId: string;
  result: CodingAgentResult;
}

type RunOptions = Omit<CodingAgentOptions, 'history' | 'resume' | 'approve'>;

async function record(
  runs: RunRepo,
  runId: string,
  input: z.infer<typeof RunInput>,
  result: CodingAgentResult,
): Promise<RecordedCodeRun> {
  if (result.state) {
    await runs.update(runId, { status: AWAITING_APPROVAL, output: { state: result.state } });
  } else {
    if (input.session) {
      // A run recorded before historyLength was (a paused run resumed after an upgrade) writes
      // the conversation whole, as it always did.
      const after = input.historyLength === undefined ? {} : { after: input.historyLength };
      await saveCodeSession(runs, input.session, result.messages, after);
    }
    await runs.update(runId, {
      status: result.finishReason === 'stop' ? 'completed' : result.finishReason,
      output: { answer: result.text, skill: result.activation.skill?.name ?? null },
    });
  }
  return { runId, result };
}

/**
 * Runs one coding request recorded in the store: the session's conversation is its history, a
 * call the rules say to ask about pauses the run (status `awaiting_approval`, its state saved),
 * and a finished run extends the session. Any server process sharing the store can answer it
 * with {@link answerCodeRun}.
 *
 * @example
 * const { runId, result } = await startCodeRun(store.runs, { request, workspace, config, model, session: 's1' });
 * if (result.pending) console.log('waiting for', result.pending);
 */
export async function startCodeRun(
  runs: RunRepo,
  options: RunOptions & { session?: string; runId?: string },
): Promise<RecordedCodeRun> {
  const runId = options.runId ?? randomUUID();
  const history = options.session ? await loadCodeSession(runs, options.session) : [];
  const input = {
    request: options.request,
    ...(options.skill ? { skill: options.skill } : {}),
    ...(options.session ? { session: options.session, historyLength: history.length } : {}),
  };
  await runs.create({ id: runId, kind: CODE_RUN_KIND, status: 'running', input });
  return traced(runs, runId, input, false, async (span) => {
    const { session: _session, runId: _runId, ...agent } = options;
    return runCodingAgent({ ...agent, history, span });
  });
}

/**
 * Runs a recorded coding run (or its resumption) in a `cohort.code` span whose spans are recorded
 * with the run, so `GET /runs/:id/trace` shows the main agent, its model and tool calls, and each
 * subagent with its budget use. A resumed run adds its spans to the same run.
 */
async function traced(
  runs: RunRepo,
  runId: string,
  input: z.infer<typeof RunInput>,
  resumed: boolean,
  run: (span: TraceSpan) => Promise<CodingAgentResult>,
): Promise<RecordedCodeRun> {
  const collector: SpanCollector = { spans: [] };
  const root = startTrace(
    'cohort.code',
    { 'cohort.run_id': runId, 'cohort.code.resumed': resumed },
    collector,
  );
  let status = 'failed';
  try {
    const result = await run(root);
    const recorded = await record(runs, runId, input, result);
    status = result.state ? AWAITING_APPROVAL : result.finishReason;
    return recorded;
  } catch (error) {
    root.fail(error);
    await runs.update(runId, { status: 'failed', output: { error: (error as Error).message } });
    throw error;
  } finally {
    root.end({ 'cohort.code.status': status });
    runs.recordTrace({ id: runId, kind: CODE_RUN_KIND, status, input }, collector.spans);
  }
}

/**
 * Why a run cannot be answered. A run stays `running` in the store when the process running it
 * was killed (kill -9, a crash): the answer says so and what to do, where "it is running" alone
 * left the user waiting for a run that would never finish.
 */
function notWaitingMessage(runId: string, status: string): string {
  if (status !== 'running') return `Run "${runId}" is not waiting for approval (it is ${status}).`;
  return `Run "${runId}" is not waiting for approval: it was answered and is running. If the cohort process running it stopped before it finished, the run cannot go on: send the request again.`;
}

/**
 * Answers a paused coding run and resumes it from the store: `answers` maps each pending call id
 * (or `*` for all) to yes, no or always. Only one caller can resume a run (the status moves from
 * `awaiting_approval` to `running` atomically); a run that is not waiting is `conflict`, an
 * unknown one `not_found`.
 *
 * @example
 * const { result } = await answerCodeRun(store.runs, runId, { '*': 'yes' }, { workspace, config, model });
 */
export async function answerCodeRun(
  runs: RunRepo,
  runId: string,
  answers: Record<string, ApprovalAnswer>,
  options: Omit<RunOptions, 'request' | 'skill'>,
): Promise<RecordedCodeRun> {
  const run = await runs.get(runId);
  if (!run || run.kind !== CODE_RUN_KIND) throw noCodingRun(runId);
  if (run.status !== AWAITING_APPROVAL)
    throw new CohortError('conflict', notWaitingMessage(runId, run.status), { field: 'run_id' });
  const input = RunInput.parse(run.input);
  const state = RunOutput.parse(run.output).state as CodingRunState;
  const missing = state.pending.filter((call) => !answers[call.toolCallId] && !answers['*']);
  if (missing.length > 0) {
    throw new CohortError(
      'invalid_input',
      `Answer every pending call: ${missing.map((call) => `${call.toolCallId} (${call.toolName})`).join(', ')}.`,
      { field: 'decision' },
    );
  }
  if (!(await runs.claim(runId, AWAITING_APPROVAL, 'running')))
    throw new CohortError('conflict', `Run "${runId}" was answered already.`, { field: 'run_id' });
  return traced(runs, runId, input, true, (span) =>
    runCodingAgent({ ...options, request: input.request, resume: { state, answers }, span }),
  );
}
