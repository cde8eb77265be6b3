import type { McpClientPool } from '../tools/mcp/mcp-client-pool.js';
import { mcpTools } from '../tools/mcp/mcp-tools.js';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import * as z from 'zod';
import {
  addUsage,
  defineTool,
  emptyUsage,
  runLoop,
  toolResultPart,
  type LoopEvent,
  type LoopFinishReason,
  type LoopTool,
  type PendingToolCall,
} from '../agents/loop/index.js';
import type { CohortConfig, PermissionSettings } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import type { TokenUsage } from '../schema/index.js';
import { fileText } from '../schema/file-text.js';
import { GEN_AI, startTrace, type TraceSpan } from '../telemetry/index.js';
import {
  activateSkill,
  allowedToolsFor,
  availableSkillsBlock,
  listSkillResources,
  loadSkills,
  readSkillResource,
  skillPrompt,
  type Skill,
  type SkillActivation,
  type SkillCatalog,
} from '../skills/index.js';
import { alwaysRule, createWorkspace, toolFailure, type HostLookup } from '../tools/index.js';
import {
  createSubagentTracker,
  createTaskTool,
  loadSubagentTypes,
  type SubagentCatalog,
  type PathRefusals,
  type SubagentEnvironment,
  type SubagentEvent,
  type SubagentResult,
} from '../subagents/index.js';
import { createCodingTools } from './coding-tools.js';
import {
  codingPermissionPolicy,
  reviewProjectSkill,
  createCodingAuthorizer,
  readDeniedBy,
  readRefusedBy,
  writeRefusedBy,
  type ApprovalAnswer,
  type ApprovalRequest,
} from './coding-permissions.js';

/** The main coding agent's own instructions; skills and the skill list are appended. */
export const CODING_AGENT_PROMPT = `You are cohort's coding assistant, working on the files of one workspace.

Use the tools to look before you answer; never guess file contents. Keep your own context small:
for work that means reading many files, searching the web or running builds and tests, spawn a
subagent with the task tool (explorer: find files and patterns; researcher: web research;
reviewer: build, test, review) and work from its short report. Give each subagent a complete,
self-contained prompt: it does not see this conversation. Independent subagent tasks can be
spawned together in one reply; they run in parallel.

Decisions that shape the code (names, structure, style) stay with you, in this context, so the
result is consistent. End with a concise answer: what you found or changed, and how you know.`;

/** The tool that reads an active skill's references, scripts and assets on demand. */
export const SKILL_RESOURCE_TOOL_NAME = 'read_skill_resource';

/** What a coding-agent run reports as it goes. */
export type CodingAgentEvent =
  LoopEvent | SubagentEvent | { type: 'skill'; activation: SkillActivation };

/**
 * Where an interrupted coding run stands: everything needed to resume it, in this process or
 * another (it is plain JSON, kept in the store's `runs` table by the server).
 */
export interface CodingRunState {
  /** The skill active when it paused (re-activated on resume). */
  skill?: string;
  /** The conversation so far, up to the assistant's tool calls and the results of those that ran. */
  messages: ModelMessage[];
  /** The calls waiting for an answer. */
  pending: PendingToolCall[];
  /** Allow rules added by "always" answers in this session. */
  sessionAllow: string[];
}

/** Options of {@link runCodingAgent}. */
export interface CodingAgentOptions {
  request: string;
  /** The workspace folder the tools are confined to. */
  workspace: string;
  config: CohortConfig;
  /** A model for a tier or id (usually `provider.languageModel`). */
  model(ref: string): LanguageModelV3;
  /** Activate this skill (the API option); otherwise `/name` or automatic matching. */
  skill?: string;
  /** The skill active earlier in this conversation: it stays active when this request activates none. */
  activeSkill?: string;
  /** Earlier turns of the conversation: skills work in the same context, so they see it. */
  history?: ModelMessage[];
  /** Home folder for `~/.config/cohort/skills` (tests). */
  home?: string;
  /**
   * The environment cohort runs with, for the user's approvals of the workspace's
   * `.claude/settings*.json` (`XDG_CONFIG_HOME`, `COHORT_TRUST_PROJECT_CONFIG`); default the process's.
   */
  env?: Record<string, string | undefined>;
  /** MCP servers already connected; by default the configured `mcpServers` are, for the run. */
  mcp?: Pick<McpClientPool, 'tools'>;
  /** Replaces the built-in coding tools (tests). */
  tools?: LoopTool[];
  fetch?: typeof fetch;
  lookup?: HostLookup;
  parentEnv?: Record<string, string | undefined>;
  signal?: AbortSignal;
  onEvent?: (event: CodingAgentEvent) => void;
  clock?: () => number;
  /** Rules and mode from the command line (over cohort.config.json and .claude/settings.json). */
  permissions?: Partial<PermissionSettings>;
  /** Asks a person about a call the rules say to ask about; without it the run pauses instead. */
  approve?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** Allow rules earlier "always" answers added in this session. */
  sessionAllow?: string[];
  /** Continues an interrupted run: its state and an answer per pending call id (`*` for all). */
  resume?: { state: CodingRunState; answers: Record<string, ApprovalAnswer> };
  /**
   * The span the run nests under (a recorded run's `cohort.code`); without it the run starts its
   * own trace. Either way the main agent is an `invoke_agent coding` span holding its model and
   * tool calls, and each subagent an `invoke_agent <type>` span under its `task` call.
   */
  span?: TraceSpan;
}

/** What a coding-agent run returns. */
export interface CodingAgentResult {
  text: string;
  activation: SkillActivation;
  /** The tier or model id the main agent ran on (a skill's `model` overrides `full`). */
  model: string;
  /** Tools the main agent could use. */
  tools: string[];
  finishReason: LoopFinishReason;
  stopMessage?: string;
  /** The main agent's own usage. */
  usage: TokenUsage;
  /** Main agent plus every subagent (usage rolls up). */
  totalUsage: TokenUsage;
  /** One result per spawned subagent, nested ones included. */
  subagents: SubagentResult[];
  messages: ModelMessage[];
  skills: SkillCatalog;
  subagentTypes: SubagentCatalog;
  /** Calls waiting for approval (finish reason `interrupted`). */
  pending?: ApprovalRequest[];
  /** What {@link runCodingAgent}'s `resume` needs, when the run is interrupted. */
  state?: CodingRunState;
  /** Allow rules added by "always" answers (the session keeps them). */
  sessionAllow: string[];
}

function skillResourceTool(skill: Skill, maxChars: number): LoopTool {
  return defineTool({
    name: SKILL_RESOURCE_TOOL_NAME,
    description: `Read a file from the active skill "${skill.name}" (under references/, scripts/ or assets/).`,
    inputSchema: z.object({
      path: fileText('path')
        .min(1)
        .describe('Path inside the skill folder, e.g. references/guide.md.'),
    }),
    execute: async ({ path }) => {
      try {
        return { ok: true, path, content: readSkillResource(skill, path, maxChars) };
      } catch (error) {
        return toolFailure(error);
      }
    },
  });
}

/**
 * Runs the main coding agent on a workspace: loads skills (names and descriptions go into the
 * system prompt; an activated skill's body is injected and its `allowed-tools` and `model` apply
 * for the rest of the task), offers the coding tools plus `task` for subagents, and runs the
 * tool-calling loop. Subagent usage rolls up into `totalUsage`.
 *
 * @example
 * const provider = createModelProvider(config);
 * const result = await runCodingAgent({
 *   request: '/refactor split src/big.ts into modules',
 *   workspace: process.cwd(),
 *   config,
 *   model: (ref) => provider.languageModel(ref),
 * });
 * console.log(result.text);
 */
export async function runCodingAgent(options: CodingAgentOptions): Promise<CodingAgentResult> {
  const parent = options.span ?? startTrace('cohort.code');
  const span = parent.child('invoke_agent coding', {
    [GEN_AI.operationName]: 'invoke_agent',
    [GEN_AI.agentName]: 'coding',
    'cohort.code.resumed': Boolean(options.resume),
  });
  try {
    const result = await connectAndRun(options, span);
    span.end({
      'cohort.code.finish_reason': result.finishReason,
      'cohort.code.skill': result.activation.skill?.name ?? '',
      'cohort.code.subagents': result.subagents.length,
      [GEN_AI.usageInput]: result.usage.promptTokens,
      [GEN_AI.usageOutput]: result.usage.completionTokens,
      'cohort.code.total_tokens': result.totalUsage.totalTokens,
    });
    return result;
  } catch (error) {
    span.fail(error);
    span.end();
    throw error;
  } finally {
    if (parent !== options.span) parent.end();
  }
}

async function connectAndRun(options: CodingAgentOptions, span: TraceSpan) {
  // The configured MCP servers' tools join the coding tools for this run, under the same
  // permission rules (`mcp__<server>__<tool>`); a server that fails to start is left out.
  const servers = options.config.mcpServers;
  if (options.mcp || Object.keys(servers).length === 0)
    return runWithTools(options, options.mcp, span);
  // The MCP client loads only when MCP servers are configured.
  const { connectMcpServers } = await import('../tools/mcp/mcp-client-pool.js');
  const pool = await connectMcpServers(servers, { cwd: options.workspace });
  try {
    return await runWithTools(options, pool, span);
  } finally {
    await pool.close();
  }
}

async function runWithTools(
  options: CodingAgentOptions,
  mcp: Pick<McpClientPool, 'tools'> | undefined,
  span: TraceSpan,
): Promise<CodingAgentResult> {
  const { config } = options;
  const workspace = createWorkspace(options.workspace);
  const skills = loadSkills({
    workspace: workspace.root,
    ...(options.home ? { home: options.home } : {}),
  });
  const subagentTypes = loadSubagentTypes(
    workspace.root,
    options.home ? { home: options.home } : {},
  );
  const resume = options.resume;
  const skillName = resume ? resume.state.skill : options.skill;
  let activation = activateSkill(
    resume ? '' : options.request,
    skills.skills,
    skillName ? { skill: skillName } : {},
  );
  const earlier = skills.skills.find((skill) => skill.name === options.activeSkill);
  if (activation.how === 'none' && earlier) {
    activation = {
      ...activation,
      skill: earlier,
      how: 'option',
      confidence: 1,
      reason: `skill "${earlier.name}" stays active from earlier in the conversation`,
    };
  }
  const sessionAllow = [...(resume?.state.sessionAllow ?? options.sessionAllow ?? [])];
  const policy = codingPermissionPolicy({
    workspace: workspace.root,
    config,
    ...(options.permissions ? { extra: options.permissions } : {}),
    projectSettings: {
      ...(options.env ? { env: options.env } : {}),
      ...(options.home ? { home: options.home } : {}),
    },
  });
  // The file tools check the rules on the file they actually open, not only on the path named.
  const ruleContext = {
    workspace: workspace.root,
    ...(options.home ? { home: options.home } : {}),
  };
  const readRefused = readRefusedBy(policy, ruleContext, activation.skill);
  const writeRefused = writeRefusedBy(policy, ruleContext, activation.skill);
  // A subagent's type adds its own refusals on the file opened (see SubagentEnvironment).
  const workspaceRefusing = (extra?: PathRefusals) =>
    createWorkspace(workspace.root, {
      readDenied: readDeniedBy(policy, ruleContext),
      readRefused: (real, path) => readRefused(real, path) ?? extra?.read(real, path),
      writeRefused: (real, path) => writeRefused(real, path) ?? extra?.write(real, path),
    });
  const guarded = workspaceRefusing();
  const projectSettings = {
    ...(options.env ? { env: options.env } : {}),
    ...(options.home ? { home: options.home } : {}),
  };
  const authorize = createCodingAuthorizer({
    policy,
    ...(activation.skill ? { skill: activation.skill } : {}),
    ...(activation.skill &&
    reviewProjectSkill(activation.skill, workspace.root, projectSettings)?.approved === false
      ? { skillAllows: false }
      : {}),
    workspace: workspace.root,
    ...(options.home ? { home: options.home } : {}),
    sessionAllow,
    ...(options.approve ? { approve: options.approve } : {}),
  });
  options.onEvent?.({ type: 'skill', activation });
  const skill = activation.skill;
  const model = skill?.model ?? 'full';

  const toolsOn = (on: ReturnType<typeof createWorkspace>): LoopTool[] => {
    const built = Object.values(
      createCodingTools({
        workspace: on,
        config,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(options.parentEnv ? { parentEnv: options.parentEnv } : {}),
        ...(options.home ? { home: options.home } : {}),
      }),
    ).map((tool) => defineTool(tool));
    return mcp
      ? [
          ...built,
          ...mcpTools(mcp, { maxOutputChars: config.tools.maxOutputChars }).map((tool) =>
            defineTool(tool),
          ),
        ]
      : built;
  };
  const baseTools = options.tools
    ? [
        ...options.tools,
        ...(mcp
          ? mcpTools(mcp, { maxOutputChars: config.tools.maxOutputChars }).map((tool) =>
              defineTool(tool),
            )
          : []),
      ]
    : toolsOn(guarded);
  const tracker = createSubagentTracker();
  const env: SubagentEnvironment = {
    model: options.model,
    parentModel: model,
    config,
    tools: baseTools,
    types: subagentTypes.types,
    skills: skills.skills,
    depth: 0,
    authorize,
    workspace: workspace.root,
    ...(options.tools ? {} : { toolsRefusing: (refused) => toolsOn(workspaceRefusing(refused)) }),
    onEvent(event) {
      tracker.handle(event);
      options.onEvent?.(event);
    },
    ...(options.clock ? { clock: options.clock } : {}),
  };
  const tools: LoopTool[] = [...baseTools];
  if (config.subagents.maxDepth > 0) tools.push(createTaskTool(env));
  const resources = skill ? listSkillResources(skill) : [];
  if (skill && resources.length > 0)
    tools.push(skillResourceTool(skill, config.tools.maxOutputChars));
  const allowed = allowedToolsFor(
    skill,
    tools.map((tool) => tool.name),
  );
  if (skill && resources.length > 0 && !allowed.includes(SKILL_RESOURCE_TOOL_NAME))
    allowed.push(SKILL_RESOURCE_TOOL_NAME);

  const system = [
    CODING_AGENT_PROMPT,
    `Workspace: ${workspace.root}`,
    availableSkillsBlock(skills.skills, skill?.name),
    skill ? skillPrompt(skill, resources) : '',
  ]
    .filter(Boolean)
    .join('\n\n');

  const messages: ModelMessage[] = resume
    ? [
        ...resume.state.messages,
        await answerPending(resume, tools, sessionAllow, options.signal, options.onEvent, span),
      ]
    : [...(options.history ?? []), { role: 'user', content: activation.request }];
  const result = await runLoop({
    model: options.model(model),
    system,
    messages,
    tools,
    allowedTools: allowed,
    authorize,
    maxSteps: config.model.maxSteps,
    timeoutMs: config.model.timeoutSeconds * 1000,
    toolTimeoutMs: config.tools.callTimeoutSeconds * 1000,
    budget: {
      maxMs: config.tools.runTimeoutSeconds * 1000,
      maxMsSetting: 'tools.runTimeoutSeconds (COHORT_RUN_TIMEOUT)',
    },
    maxRetries: config.model.maxRetries,
    ...(config.model.temperature !== undefined ? { temperature: config.model.temperature } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    span,
    onEvent: (event) => options.onEvent?.(event),
  });
  const totalUsage = emptyUsage();
  addUsage(totalUsage, result.usage);
  addUsage(totalUsage, tracker.usage());
  const pending = result.pending?.map((call) => ({
    toolCallId: call.toolCallId,
    tool: call.toolName,
    input: call.input,
    reason: call.reason,
    always: alwaysRule({ tool: call.toolName, input: call.input }),
  }));
  return {
    text: result.text,
    activation,
    model,
    tools: allowed,
    sessionAllow,
    ...(pending && result.pending
      ? {
          pending,
          state: {
            ...(activation.skill ? { skill: activation.skill.name } : {}),
            messages: result.messages,
            pending: result.pending,
            sessionAllow,
          },
        }
      : {}),
    finishReason: result.finishReason,
    ...(result.stopMessage ? { stopMessage: result.stopMessage } : {}),
    usage: result.usage,
    totalUsage,
    subagents: tracker.results(),
    messages: result.messages,
    skills,
    subagentTypes,
  };
}

/**
 * Runs or declines the calls an interrupted run waits on, per the answers, and returns the tool
 * message with their results. "always" also adds its rule to the session. An answer missing for a
 * pending call is `invalid_input`: nothing runs.
 */
async function answerPending(
  resume: NonNullable<CodingAgentOptions['resume']>,
  tools: readonly LoopTool[],
  sessionAllow: string[],
  signal: AbortSignal | undefined,
  onEvent: ((event: CodingAgentEvent) => void) | undefined,
  span: TraceSpan,
): Promise<ModelMessage> {
  const answers = resume.state.pending.map((call) => {
    const answer = resume.answers[call.toolCallId] ?? resume.answers['*'];
    if (!answer) {
      throw new CohortError(
        'invalid_input',
        `No answer for the pending ${call.toolName} call ${call.toolCallId}: answer yes, no or always.`,
        { field: 'decision' },
      );
    }
    return answer;
  });
  const results = [];
  for (const [index, call] of resume.state.pending.entries()) {
    const answer = answers[index];
    const base = { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
    if (answer === 'always')
      sessionAllow.push(alwaysRule({ tool: call.toolName, input: call.input }));
    if (answer === 'no') {
      results.push(
        toolResultPart({
          ...base,
          output: `The user declined this ${call.toolName} call. Do not retry it; ask what to do instead.`,
          isError: true,
        }),
      );
      continue;
    }
    const tool = tools.find((candidate) => candidate.name === call.toolName);
    const parsed = tool?.inputSchema.safeParse(call.input);
    if (!tool || !parsed?.success) {
      results.push(
        toolResultPart({
          ...base,
          output: `tool ${call.toolName} is not available`,
          isError: true,
        }),
      );
      continue;
    }
    try {
      const output = await tool.execute(parsed.data, {
        signal: signal ?? new AbortController().signal,
        toolCallId: call.toolCallId,
        span,
      });
      results.push(toolResultPart({ ...base, output, isError: false }));
    } catch (error) {
      results.push(
        toolResultPart({
          ...base,
          output: `tool ${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        }),
      );
    }
  }
  for (const part of results) {
    onEvent?.({
      type: 'tool-result',
      step: 0,
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: part.output,
      isError: part.output.type === 'error-text',
    });
  }
  return { role: 'tool', content: results };
}
