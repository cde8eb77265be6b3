import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import type { z } from 'zod';
import type { TokenUsage } from '../../schema/index.js';
import type { TraceSpan } from '../../telemetry/index.js';

/** What a tool's `execute` is given besides its input. */
export interface ToolContext {
  /** Aborts when the run is cancelled; pass it on to any I/O. */
  signal: AbortSignal;
  toolCallId: string;
  /** The tool call's span: work the tool does (a retrieval, a subagent) nests under it. */
  span?: TraceSpan;
}

/** A tool the model may call: a name, a description, a zod input schema and an executor. */
export interface LoopTool<Input = unknown, Output = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema the model is shown, when the tool comes with its own (an MCP server's);
   * otherwise it is made from `inputSchema`, which validates the input either way.
   */
  inputJsonSchema?: Record<string, unknown>;
  /** Its return value is sent to the model as JSON (a string is sent as text). */
  execute(input: Input, context: ToolContext): Promise<Output> | Output;
}

/** Limits a run may not exceed; reaching one ends the run with finish reason `budget`. */
export interface LoopBudget {
  /** Total tokens (prompt + completion) across all calls of the run. */
  maxTokens?: number;
  /** Model calls. */
  maxTurns?: number;
  /**
   * Wall time of the whole run, in milliseconds: then the model call or tool calls in flight are
   * stopped (as a cancellation stops them) and the run ends with finish reason `budget`.
   */
  maxMs?: number;
  /** The setting that gives `maxMs`, named in the message of a run it stopped. */
  maxMsSetting?: string;
}

/** Why a run ended. */
export type LoopFinishReason =
  /** The model answered without calling a tool. */
  | 'stop'
  /** The step cap ended a run that kept calling tools. */
  | 'max_steps'
  /** A token or turn budget was used up. */
  | 'budget'
  /** The caller's signal aborted the run. */
  | 'aborted'
  /** The caller's `stopWhen` ended the run after a turn. */
  | 'halted'
  /** A tool call waits for a person's approval (`authorize` said `pause`); see `pending`. */
  | 'interrupted';

/**
 * What `authorize` says about one tool call: run it, refuse it (the model reads `message` as the
 * tool's error), or pause the run until a person answers (the run ends `interrupted`).
 */
export type ToolAuthorization =
  | { behavior: 'allow' }
  | { behavior: 'deny'; message: string }
  | { behavior: 'pause'; reason: string };

/** A tool call an interrupted run waits on: the model's call and why it needs approval. */
export interface PendingToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  reason: string;
}

/** One tool call the model made and what came of it. */
export interface LoopToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  output: unknown;
  /** True when the tool failed, was refused, or its input was invalid. */
  isError: boolean;
  step: number;
}

/** One model call: its step, usage and how it finished. */
export interface LoopCall {
  step: number;
  usage: TokenUsage;
  /** The model's own finish reason (`stop`, `tool-calls`, `length`…). */
  finishReason: string;
  /** Attempts it took (1 unless retried). */
  attempts: number;
}

/** What a finished run returns. */
export interface LoopResult {
  /** The text of the model's final turn. */
  text: string;
  /** The input messages followed by every assistant and tool message of the run. */
  messages: ModelMessage[];
  steps: number;
  usage: TokenUsage;
  calls: LoopCall[];
  finishReason: LoopFinishReason;
  toolCalls: LoopToolCall[];
  /** Why the run stopped early, in words a user can act on (for `max_steps`, `budget`, `halted`). */
  stopMessage?: string;
  /** Calls waiting for approval when the run ended `interrupted`. */
  pending?: PendingToolCall[];
}

/** Events of a streamed run, in order; the last one is always `finish`. */
export type LoopEvent =
  | { type: 'step-start'; step: number }
  | { type: 'text-delta'; step: number; text: string }
  | { type: 'tool-call'; step: number; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-result';
      step: number;
      toolCallId: string;
      toolName: string;
      output: unknown;
      isError: boolean;
    }
  | {
      type: 'tool-paused';
      step: number;
      toolCallId: string;
      toolName: string;
      input: unknown;
      reason: string;
    }
  | { type: 'retry'; step: number; attempt: number; delayMs: number; message: string }
  | {
      type: 'step-finish';
      step: number;
      usage: TokenUsage;
      finishReason: string;
      toolCalls: number;
    }
  | { type: 'finish'; result: LoopResult };

/** State `stopWhen` sees after each turn. */
export interface LoopState {
  step: number;
  usage: TokenUsage;
  toolCalls: readonly LoopToolCall[];
}

/** Options of `runLoop` / `runLoopStream`. */
export interface LoopOptions {
  model: LanguageModelV3;
  system?: string;
  messages: ModelMessage[];
  tools?: readonly LoopTool[];
  /** Model calls before the step cap ends the run (config `model.maxSteps`). */
  maxSteps: number;
  /** Time limit of each model call in milliseconds (config `model.timeoutSeconds`). */
  timeoutMs: number;
  /** Retries of a failed model call (config `model.maxRetries`, default 2). */
  maxRetries?: number;
  /** First backoff delay in milliseconds (default 1000). */
  retryDelayMs?: number;
  signal?: AbortSignal;
  budget?: LoopBudget;
  /** Tool names the model may call; others are refused without running. Default: every tool. */
  allowedTools?: readonly string[];
  /**
   * Time limit of each tool call in milliseconds (config `tools.callTimeoutSeconds`; default
   * 600,000). A call still running then has its signal aborted (bash kills its process tree) and
   * the model reads an error saying so; the run goes on.
   */
  toolTimeoutMs?: number;
  temperature?: number;
  maxOutputTokens?: number;
  /** Most characters one model call may produce before the run fails (default 1,000,000). */
  maxOutputChars?: number;
  /**
   * Decides each valid tool call before it runs (permission rules, approval). Default: allow.
   * A `pause` ends the run `interrupted` once the turn's other calls have run.
   */
  authorize?: (call: {
    toolCallId: string;
    toolName: string;
    input: unknown;
  }) => ToolAuthorization | Promise<ToolAuthorization>;
  /** Ends the run after a turn when it returns a reason (finish reason `halted`). */
  stopWhen?: (state: LoopState) => string | undefined;
  /** Sees every event (for `runLoop`; the stream yields them instead). */
  onEvent?: (event: LoopEvent) => void;
  /** The span model calls (GenAI `chat`) and tool calls (`execute_tool`) nest under. */
  span?: TraceSpan;
}
