import { timerDelay } from '../../bounded-call/index.js';
import { findJsonProblem, MAX_JSON_DEPTH } from '../../schema/index.js';
import { GEN_AI, inSpan, type TraceSpan } from '../../telemetry/index.js';
import type { JSONValue } from '@ai-sdk/provider';
import type { ToolResultPart } from 'ai';
import type { LoopOptions, LoopTool } from './types.js';
import {
  describeZodError,
  invalidInputMessage,
  refusedToolMessage,
  tooManyToolCallsMessage,
  unknownToolMessage,
} from './errors.js';
import { mapWithConcurrency } from './map-with-concurrency.js';

/**
 * Most tool calls of one model reply that run; the rest get an error result the model reads. A
 * reply asking for hundreds at once (each a sandbox or a subagent) would otherwise start them all.
 */
export const MAX_TOOL_CALLS_PER_STEP = 32;
/** Most tool calls of one reply running at the same time; the others wait their turn. */
export const MAX_PARALLEL_TOOL_CALLS = 8;
/**
 * Time limit of one tool call when the run sets none (config `tools.callTimeoutSeconds`): above
 * the tools' own limits (bash 60 s, a subagent 300 s), a backstop for a call that never ends.
 */
export const DEFAULT_TOOL_CALL_TIMEOUT_MS = 600_000;

/** A tool call as the model sent it: the input is still the raw JSON text. */
export interface PendingToolCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/** The outcome of one tool call. */
export interface ExecutedToolCall {
  toolCallId: string;
  toolName: string;
  /** The parsed input (the raw text when it was not valid JSON). */
  input: unknown;
  output: unknown;
  isError: boolean;
  /** Set when `authorize` paused the call: it did not run, and the reason is why. */
  paused?: string;
}

/** What tool execution needs from the run. */
export interface ToolTable {
  byName: ReadonlyMap<string, LoopTool>;
  /** Undefined allows every tool. */
  allowed: ReadonlySet<string> | undefined;
  authorize?: LoopOptions['authorize'];
  /** Time limit of each call's execution, in milliseconds (approval waits are not counted). */
  timeoutMs?: number;
}

/**
 * Runs one tool call. A tool not allowed here is refused without running; an unknown tool, bad
 * JSON, input failing the schema or a tool that throws all become an error result the model reads,
 * so one bad call never ends the run. Only cancellation propagates.
 */
export async function executeToolCall(
  call: PendingToolCall,
  table: ToolTable,
  signal: AbortSignal,
  parent?: TraceSpan,
): Promise<ExecutedToolCall> {
  if (!parent) return executeInSpan(call, table, signal, undefined);
  // One span per tool call (GenAI `execute_tool`), failed when the call is an error result.
  const attributes = {
    [GEN_AI.operationName]: 'execute_tool',
    [GEN_AI.toolName]: call.toolName,
    [GEN_AI.toolCallId]: call.toolCallId,
  };
  return inSpan(parent, `execute_tool ${call.toolName}`, attributes, async (span) => {
    const executed = await executeInSpan(call, table, signal, span);
    if (executed.isError) span.fail(String(executed.output));
    return executed;
  });
}

async function executeInSpan(
  call: PendingToolCall,
  table: ToolTable,
  signal: AbortSignal,
  span: TraceSpan | undefined,
): Promise<ExecutedToolCall> {
  const fail = (input: unknown, message: string): ExecutedToolCall => ({
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input,
    output: message,
    isError: true,
  });
  if (table.allowed && !table.allowed.has(call.toolName))
    return fail(parseToolInput(call.input), refusedToolMessage(call.toolName));
  const tool = table.byName.get(call.toolName);
  if (!tool)
    return fail(
      parseToolInput(call.input),
      unknownToolMessage(call.toolName, [...table.byName.keys()]),
    );
  const read = readJsonInput(call.input);
  if (!read.ok) return fail(call.input, invalidInputMessage(call.toolName, read.problem));
  const parsed = tool.inputSchema.safeParse(read.value);
  if (!parsed.success)
    return fail(read.value, invalidInputMessage(call.toolName, describeZodError(parsed.error)));
  if (table.authorize) {
    const decision = await table.authorize({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: parsed.data,
    });
    if (decision.behavior === 'deny') return fail(parsed.data, decision.message);
    if (decision.behavior === 'pause')
      return { ...fail(parsed.data, decision.reason), isError: false, paused: decision.reason };
  }
  const timeoutMs = table.timeoutMs ?? DEFAULT_TOOL_CALL_TIMEOUT_MS;
  // The call's own signal: aborted with the run, or when the call runs past its time (bash then
  // kills its whole process tree, a fetch or an MCP request is cancelled).
  const stop = new AbortController();
  // A run that ends (cancelled, or at its time limit) does not wait for a tool that ignores its
  // signal: such a call held a cancelled run until its own limit.
  let runEnded: () => void = () => undefined;
  const ended = new Promise<'run-ended'>((resolve) => (runEnded = () => resolve('run-ended')));
  const onRunAbort = () => {
    stop.abort(signal.reason);
    runEnded();
  };
  signal.addEventListener('abort', onRunAbort, { once: true });
  if (signal.aborted) onRunAbort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overTime = new Promise<'over-time'>((resolve) => {
    timer = setTimeout(() => resolve('over-time'), timerDelay(timeoutMs));
  });
  try {
    const output = await Promise.race([
      tool.execute(parsed.data, {
        signal: stop.signal,
        toolCallId: call.toolCallId,
        ...(span ? { span } : {}),
      }),
      overTime,
      ended,
    ]);
    if (output === 'run-ended') throw signal.reason;
    if (output === 'over-time' && !signal.aborted) {
      // A tool that ignores its signal is left behind; the run goes on without its result.
      stop.abort(new Error('tool call timed out'));
      return fail(parsed.data, toolTimeoutMessage(call.toolName, timeoutMs));
    }
    return {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: parsed.data,
      output,
      isError: false,
    };
  } catch (error) {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return fail(parsed.data, `tool ${call.toolName} failed: ${message}`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onRunAbort);
  }
}

/** What the model reads of a call stopped at its time limit. */
function toolTimeoutMessage(toolName: string, timeoutMs: number): string {
  return `tool ${toolName} did not finish within ${timeoutMs / 1000} s (tools.callTimeoutSeconds) and was stopped (a command is killed with every process it started). Do not retry it as it was: do less in one call, or tell the user it needs longer.`;
}

/**
 * Runs one reply's tool calls, at most {@link MAX_PARALLEL_TOOL_CALLS} at once, and refuses those
 * past {@link MAX_TOOL_CALLS_PER_STEP} without running them. Results keep the calls' order.
 */
export async function executeToolCalls(
  calls: readonly PendingToolCall[],
  table: ToolTable,
  signal: AbortSignal,
  parent?: TraceSpan,
): Promise<ExecutedToolCall[]> {
  const ran = await mapWithConcurrency(
    calls.slice(0, MAX_TOOL_CALLS_PER_STEP),
    MAX_PARALLEL_TOOL_CALLS,
    (call) => executeToolCall(call, table, signal, parent),
  );
  const refused = calls.slice(MAX_TOOL_CALLS_PER_STEP).map((call): ExecutedToolCall => ({
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: parseToolInput(call.input),
    output: tooManyToolCallsMessage(call.toolName, calls.length, MAX_TOOL_CALLS_PER_STEP),
    isError: true,
  }));
  return [...ran, ...refused];
}

/** The tool-result message part the model reads for an executed call. */
export function toolResultPart(call: ExecutedToolCall): ToolResultPart {
  const output: ToolResultPart['output'] = call.isError
    ? { type: 'error-text', value: String(call.output) }
    : typeof call.output === 'string'
      ? { type: 'text', value: call.output }
      : // Tools return plain data; the provider serialises it as JSON.
        { type: 'json', value: (call.output ?? null) as JSONValue };
  return { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output };
}

/** A tool call's arguments read as JSON; empty text is `{}`, a call with no arguments. */
/**
 * A tool call's JSON arguments, parsed. Arguments nested deeper than {@link MAX_JSON_DEPTH} are
 * refused as a request body is: no tool takes them, and the run's records and wire forms walk
 * every level (a hostile model's 5,000 nested arrays overflowed the stack storing the run: 500).
 */
function readJsonInput(
  text: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'arguments are not valid JSON' };
  }
  if (findJsonProblem(value, MAX_JSON_DEPTH, { text: false })) {
    return { ok: false, problem: `arguments are nested more than ${MAX_JSON_DEPTH} levels deep` };
  }
  return { ok: true, value };
}

/** A tool call's input as data, for records and events: text that is not JSON (or nested too deep) stays the text the model wrote. */
export function parseToolInput(text: string): unknown {
  const read = readJsonInput(text);
  return read.ok ? read.value : text;
}
