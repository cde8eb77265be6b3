import type { LanguageModelV3 } from '@ai-sdk/provider';
import { relative, resolve } from 'node:path';
import type { CohortConfig } from '../config/index.js';
import { attemptSignal } from '../bounded-call/index.js';
import { isCohortError } from '../errors/index.js';
import {
  addUsage,
  emptyUsage,
  runLoop,
  type LoopOptions,
  type LoopResult,
  type LoopTool,
} from '../agents/loop/index.js';
import { coversReal, leavesScope, reachedPath, toolRestriction } from '../tools/index.js';
import type { Skill } from '../skills/index.js';
import type { TokenUsage } from '../schema/index.js';
import { GEN_AI, type TraceSpan } from '../telemetry/index.js';
import type { Attributes } from '@opentelemetry/api';
import type { SubagentEvent, SubagentResult } from './subagent-events.js';
import {
  capReport,
  parseSubagentReport,
  REPORT_INSTRUCTIONS,
  type SubagentReport,
} from './subagent-report.js';
import { subagentModel, type SubagentType } from './subagent-type.js';
import { createTaskTool } from './task-tool.js';

/** Everything a spawn needs from its parent, passed in so tests give scripted models and fake tools. */
export interface SubagentEnvironment {
  /** A model for a tier (`fast`, `full`) or a model id. */
  model(ref: string): LanguageModelV3;
  /** The model the parent runs on, for `model: inherit`. */
  parentModel: string;
  config: CohortConfig;
  /** The tools a subagent may be given (the parent's, without `task`). */
  tools: readonly LoopTool[];
  types: ReadonlyMap<string, SubagentType>;
  /** Skills a type may preload with its `skills` field. */
  skills?: readonly Skill[];
  /** Depth of the spawner: the main agent is 0. */
  depth: number;
  parentId?: string;
  onEvent?: (event: SubagentEvent) => void;
  /** Milliseconds clock (default `Date.now`). */
  clock?: () => number;
  /** Id generator (default: type plus a counter). */
  newId?: (type: string) => string;
  /** The parent's permission check, applied to every call a subagent makes (a pause is a refusal). */
  authorize?: LoopOptions['authorize'];
  /** The workspace the type's path rules (`Read(src/**)`) are relative to (default: cwd). */
  workspace?: string;
  /**
   * The parent's tools, built again so that their file tools also refuse what `refused` says of
   * the file they actually open (its real path, named `path` by the call): a type's path rules
   * then hold on the file opened, not only when the call was authorized. Without it a type's
   * tools are `tools`, checked at authorization only.
   */
  toolsRefusing?: (refused: PathRefusals) => readonly LoopTool[];
}

/** Why a file tool may not read or write the real path `real` its call named `path`, if so. */
export interface PathRefusals {
  read(real: string, path: string): string | undefined;
  write(real: string, path: string): string | undefined;
}

/**
 * What a type's `tools` and `disallowedTools` refuse of the file a tool opens: a file reached
 * through a symlink outside the path rules it was named under (`Read(docs/**)`, `docs/code` →
 * `../src` made after the call was authorized), or one a `disallowedTools` rule covers. A path
 * with no symlink on the way was decided when the call was authorized.
 */
function typeRefusals(type: SubagentType, workspace: string): PathRefusals {
  const allowed = type.tools ? toolRestriction(type.tools) : undefined;
  const disallowed = toolRestriction(type.disallowedTools);
  const context = { workspace };
  const tools = `the ${type.name} subagent's tools (${type.tools?.join(', ')})`;
  const refusal =
    (verb: 'read' | 'write') =>
    (real: string, path: string): string | undefined => {
      if (resolve(workspace, path) === real) return undefined;
      const shown = relative(workspace, real) || '.';
      if (allowed && leavesScope(allowed, verb, path, real, context))
        return `Permission denied: "${path}" leads to ${shown} through a symbolic link, which ${tools} do not allow.`;
      const rule = coversReal(disallowed, verb, real, context);
      return rule
        ? `Permission denied: "${path}" leads to ${shown} through a symbolic link, and ${rule} is in the ${type.name} subagent's disallowedTools.`
        : undefined;
    };
  return { read: refusal('read'), write: refusal('write') };
}

/**
 * What a subagent's span says about its budget: turns and tokens used against their limits, and
 * the larger of the two fractions as `cohort.subagent.budget_used` (1 means a budget ran out).
 */
export function subagentBudgetAttributes(
  result: SubagentResult,
  maxTurns: number,
  maxTokens: number,
): Attributes {
  const used = Math.max(
    maxTurns > 0 ? result.turns / maxTurns : 0,
    maxTokens > 0 ? result.usage.totalTokens / maxTokens : 0,
  );
  return {
    'cohort.subagent.status': result.status,
    'cohort.subagent.turns': result.turns,
    'cohort.subagent.tokens': result.usage.totalTokens,
    'cohort.subagent.budget_used': Math.round(used * 1000) / 1000,
    'cohort.subagent.report_truncated': result.truncated,
    [GEN_AI.usageInput]: result.usage.promptTokens,
    [GEN_AI.usageOutput]: result.usage.completionTokens,
  };
}

let counter = 0;
const defaultId = (type: string) => `${type}-${++counter}`;

/** Paths the subagent touched, for a report that has none (budget or time ran out). */
function touchedFiles(result: LoopResult | undefined): string[] {
  const files = new Set<string>();
  for (const call of result?.toolCalls ?? []) {
    const input = call.input as { path?: unknown } | undefined;
    if (!call.isError && typeof input?.path === 'string') files.add(input.path);
  }
  return [...files];
}

/**
 * The tools a spawned subagent gets: those its type's `tools` rules name (or all), minus tools its
 * `disallowedTools` name without a specifier, plus `task` if depth allows.
 */
function subagentTools(
  env: SubagentEnvironment,
  type: SubagentType,
  childEnv: SubagentEnvironment,
): LoopTool[] {
  const names = [...env.tools.map((tool) => tool.name), 'task'];
  const wanted = new Set(type.tools ? toolRestriction(type.tools).tools(names) : names);
  const removed = new Set(
    toolRestriction(type.disallowedTools.filter((rule) => !rule.includes('('))).tools(names),
  );
  const tools = env.tools.filter((tool) => wanted.has(tool.name) && !removed.has(tool.name));
  const mayNest = childEnv.depth < env.config.subagents.maxDepth;
  if (mayNest && wanted.has('task') && !removed.has('task')) tools.push(createTaskTool(childEnv));
  return tools;
}

/**
 * The check every call of a subagent goes through: its type's `tools` rules (`Bash(npm test:*)`
 * runs `npm test` only), its `disallowedTools` rules, then the parent's permission check. A call
 * that would need a person's approval is refused: a subagent cannot pause its parent's run.
 */
function subagentAuthorize(env: SubagentEnvironment, type: SubagentType): LoopOptions['authorize'] {
  const allowed = type.tools ? toolRestriction(type.tools) : undefined;
  const disallowed = toolRestriction(type.disallowedTools);
  const context = { workspace: env.workspace ?? process.cwd() };
  return async (call) => {
    const permissionCall = { tool: call.toolName, input: call.input };
    if (allowed && !allowed.permits(permissionCall, context)) {
      const tools = `the ${type.name} subagent's tools (${type.tools?.join(', ')})`;
      // Permitted by name, not where a symlink on the way leads (docs/code -> ../src).
      const reached = allowed.permitsAsNamed(permissionCall, context)
        ? reachedPath(permissionCall, context)
        : undefined;
      return {
        behavior: 'deny',
        message: reached
          ? `Permission denied: "${String((call.input as { path?: unknown }).path ?? '.')}" leads to ${relative(context.workspace, reached) || '.'} through a symbolic link, which ${tools} do not allow.`
          : `Permission denied: ${tools} do not allow this ${call.toolName} call.`,
      };
    }
    const refusedBy = disallowed.covers(permissionCall, context);
    if (refusedBy)
      return {
        behavior: 'deny',
        message: `Permission denied: ${refusedBy} is in the ${type.name} subagent's disallowedTools.`,
      };
    const parent = (await env.authorize?.(call)) ?? { behavior: 'allow' };
    if (parent.behavior === 'pause')
      return {
        behavior: 'deny',
        message: `Permission needed: ${parent.reason}; a subagent cannot ask the user. Report that this step needs the main agent.`,
      };
    return parent;
  };
}

/**
 * Spawns one subagent in an isolated context: its own system prompt and the task prompt only (no
 * parent history), its type's tools and model tier, and budgets of turns, tokens and wall time
 * (config `subagents.*`, `maxTurns` per type). Never throws: every outcome is a
 * {@link SubagentResult} whose report is capped to `subagents.summaryMaxTokens`.
 *
 * @example
 * const result = await spawnSubagent(env, { type: 'explorer', prompt: 'Where is the retry policy defined?' });
 * result.report.summary; // 'src/models/retry.ts defines ...'
 */
export async function spawnSubagent(
  env: SubagentEnvironment,
  request: { type: string; prompt: string },
  signal?: AbortSignal,
  parentSpan?: TraceSpan,
): Promise<SubagentResult> {
  const clock = env.clock ?? Date.now;
  const started = clock();
  const id = (env.newId ?? defaultId)(request.type);
  const { config } = env;
  const type = env.types.get(request.type);
  const model = type ? subagentModel(type.model, env.parentModel) : env.parentModel;
  const maxTurns = type?.maxTurns ?? config.subagents.maxTurns;
  // The subagent's span (GenAI `invoke_agent`) under the task call that spawned it; its model and
  // tool calls nest inside, and it ends with the budget the subagent used.
  const span = parentSpan?.child(`invoke_agent ${request.type}`, {
    [GEN_AI.operationName]: 'invoke_agent',
    [GEN_AI.agentName]: request.type,
    [GEN_AI.requestModel]: model,
    'cohort.subagent.id': id,
    'cohort.subagent.depth': env.depth + 1,
    'cohort.subagent.max_turns': maxTurns,
    'cohort.subagent.max_tokens': config.subagents.maxTokens,
  });
  env.onEvent?.({
    type: 'subagent-start',
    id,
    ...(env.parentId ? { parentId: env.parentId } : {}),
    agentType: request.type,
    prompt: request.prompt,
    model,
    depth: env.depth + 1,
    at: started,
  });
  const usage: TokenUsage = emptyUsage();
  let turns = 0;
  const finish = (
    status: SubagentResult['status'],
    report: SubagentReport,
    stopMessage?: string,
  ): SubagentResult => {
    const { value, truncated } = capReport(report, config.subagents.summaryMaxTokens);
    const result: SubagentResult = {
      id,
      type: request.type,
      model,
      status,
      report: value,
      truncated,
      usage,
      turns,
      durationMs: Math.max(0, clock() - started),
      ...(stopMessage ? { stopMessage } : {}),
    };
    env.onEvent?.({ type: 'subagent-end', id, result, at: clock() });
    if (span) {
      if (status !== 'completed') span.fail(stopMessage ?? report.summary);
      span.end(subagentBudgetAttributes(result, maxTurns, config.subagents.maxTokens));
    }
    return result;
  };

  if (!type) {
    const known = [...env.types.keys()].join(', ');
    return finish('failed', {
      summary: `Unknown subagent type "${request.type}". Known types: ${known}.`,
      findings: [],
      sources: [],
      files: [],
    });
  }

  const childEnv: SubagentEnvironment = {
    ...env,
    depth: env.depth + 1,
    parentId: id,
    parentModel: model,
  };
  // Its path rules hold on the file each tool opens, as the active skill's do.
  const restrictsPaths = type.tools !== undefined || type.disallowedTools.length > 0;
  const scoped =
    restrictsPaths && env.toolsRefusing
      ? { ...env, tools: env.toolsRefusing(typeRefusals(type, env.workspace ?? process.cwd())) }
      : env;
  const tools = subagentTools(scoped, type, childEnv);
  const preloaded = (env.skills ?? [])
    .filter((skill) => type.skills.includes(skill.name))
    .map((skill) => `<skill name="${skill.name}">\n${skill.prompt}\n</skill>`);
  const system = [
    type.systemPrompt,
    ...preloaded,
    `Tools you can use: ${tools.map((tool) => tool.name).join(', ') || 'none'}.`,
    REPORT_INSTRUCTIONS,
  ].join('\n\n');
  const timeoutMs = config.subagents.timeoutSeconds * 1000;
  // The subagent's whole run is one bounded wait: its deadline joined with the caller's signal.
  const deadline = attemptSignal(signal, timeoutMs);
  const runSignal = deadline.signal;

  let result: LoopResult | undefined;
  try {
    result = await runLoop({
      model: env.model(model),
      system,
      // Isolation: the task prompt is the whole conversation the subagent sees.
      messages: [{ role: 'user', content: request.prompt }],
      tools,
      authorize: subagentAuthorize(env, type),
      // One more step than the turn budget, so running out reads as `budget`, not a step cap.
      maxSteps: maxTurns + 1,
      budget: { maxTurns, maxTokens: config.subagents.maxTokens },
      timeoutMs: config.model.timeoutSeconds * 1000,
      toolTimeoutMs: config.tools.callTimeoutSeconds * 1000,
      maxRetries: config.model.maxRetries,
      signal: runSignal,
      ...(span ? { span } : {}),
      onEvent(event) {
        if (event.type === 'step-finish') {
          turns = event.step;
          addUsage(usage, event.usage);
          env.onEvent?.({
            type: 'subagent-progress',
            id,
            turns,
            tokens: usage.totalTokens,
            at: clock(),
          });
        } else if (event.type === 'tool-call') {
          env.onEvent?.({
            type: 'subagent-progress',
            id,
            turns,
            tokens: usage.totalTokens,
            tool: event.toolName,
            at: clock(),
          });
        }
      },
    });
  } catch (error) {
    const message = isCohortError(error) || error instanceof Error ? error.message : String(error);
    const status = deadline.timedOut() ? 'timeout' : signal?.aborted ? 'aborted' : 'failed';
    return finish(
      status,
      {
        summary: `The ${request.type} subagent failed: ${message}`,
        findings: [],
        sources: [],
        files: [],
      },
      message,
    );
  } finally {
    deadline.dispose();
  }

  const partial = (why: string): SubagentReport => {
    const report = parseSubagentReport(result?.text ?? '');
    return {
      ...report,
      summary: `${why}${report.summary ? ` Last output: ${report.summary}` : ''}`,
      files: report.files.length > 0 ? report.files : touchedFiles(result),
    };
  };
  switch (result.finishReason) {
    case 'stop': {
      const report = parseSubagentReport(result.text);
      return finish('completed', {
        ...report,
        files: report.files.length > 0 ? report.files : touchedFiles(result),
      });
    }
    case 'aborted': {
      if (deadline.timedOut()) {
        const why = `Stopped: the ${request.type} subagent ran longer than ${config.subagents.timeoutSeconds}s (subagents.timeoutSeconds).`;
        return finish('timeout', partial(why), why);
      }
      return finish('aborted', partial('The subagent was cancelled.'), 'cancelled');
    }
    default: {
      const why = `${result.stopMessage ?? 'Stopped early.'} (budget of the ${request.type} subagent)`;
      return finish('budget_exceeded', partial(why), why);
    }
  }
}
