import { resolve } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { PermissionMode, type PermissionSettings } from '../../config/index.js';
import {
  CohortError,
  formatNumber,
  isCohortError,
  oneOf,
  refusedValue,
} from '../../errors/index.js';
import {
  createSubagentTracker,
  describeSubagent,
  isSubagentEvent,
  renderSubagentTree,
} from '../../subagents/index.js';
import {
  CODE_SESSION_ID,
  CODE_SESSION_ID_RULE,
  loadCodeSession,
  openCoding,
  saveCodeSession,
  type ApprovalAnswer,
  type ApprovalRequest,
  type CodingAgentResult,
} from '../../coding/index.js';
import { toWire } from '../../schema/index.js';
import { openStore } from '../../store/index.js';
import { createWorkspace, parsePermissionRule } from '../../tools/index.js';
import type { CliCommand, CliIo } from '../command.js';
import { parseCommandArgs, requirePositional, stringFlag } from '../args.js';
import {
  askToApproveConfig,
  canAsk,
  configAskingForApproval,
  configFor,
  STORE_FLAGS,
} from '../open.js';
import { bidiControlsShown, oneLineShown } from '../terminal-text.js';
import { tellUnapproved, unapprovedWorkspaceSettings } from '../workspace-notices.js';
import { countOf } from '../../telemetry/index.js';

const usage =
  'cohort code ["<task>"] [--workspace DIR] [--skill NAME] [--session ID] [--allow RULE]... [--ask RULE]... [--deny RULE]... [--permission-mode default|acceptEdits|bypassPermissions|dontAsk] [--json]';
/** Fewest milliseconds between two redraws of the live tree. */
const REDRAW_MS = 100;

/** Draws the subagent tree: redrawn in place on a terminal, one plain line per start/end otherwise. */
function createTreeView(io: CliIo, clock: () => number) {
  const tracker = createSubagentTracker();
  let drawn = 0;
  let last = 0;
  const redraw = (force: boolean) => {
    const now = clock();
    if (!force && now - last < REDRAW_MS) return;
    last = now;
    const lines = renderSubagentTree(tracker.records(), now);
    // Move up over the previous tree and clear to the end of the screen before drawing again.
    if (drawn > 0) io.control?.('stdout', `\x1b[${drawn}A\x1b[0J`);
    io.stdout(`${lines.join('\n')}${lines.length ? '\n' : ''}`);
    drawn = lines.length;
  };
  return {
    tracker,
    handle(event: Parameters<typeof tracker.handle>[0]) {
      tracker.handle(event);
      if (io.isTTY) {
        redraw(event.type !== 'subagent-progress');
        return;
      }
      const record = tracker.records().find((candidate) => candidate.id === event.id);
      if (!record) return;
      const indent = '  '.repeat(Math.max(0, record.depth - 1));
      if (event.type === 'subagent-start')
        io.stdout(
          `${indent}→ ${record.type} started: ${record.prompt.replace(/\s+/g, ' ').slice(0, 80)}\n`,
        );
      if (event.type === 'subagent-end')
        io.stdout(`${indent}${describeSubagent(record, clock())}\n`);
    },
  };
}

/**
 * One line of a tool call, as the approval prompt shows it: with its bidirectional controls shown
 * (see {@link bidiControlsShown}), so what is approved reads in the order it runs, and on one line
 * (see {@link oneLineShown}), so no part of it scrolls away above the prompt.
 */
function describeCall(request: ApprovalRequest): string {
  return bidiControlsShown(oneLineShown(callLine(request)));
}

/** A tool call in words: the command, path or URL it acts on. */
function callLine(request: ApprovalRequest): string {
  const input = (request.input ?? {}) as Record<string, unknown>;
  if (request.tool === 'bash') return `bash wants to run: ${String(input.command)}`;
  if (typeof input.path === 'string') return `${request.tool} wants to change ${input.path}`;
  if (typeof input.url === 'string') return `${request.tool} wants to fetch ${input.url}`;
  return `${request.tool} wants to run with ${JSON.stringify(input).slice(0, 200)}`;
}

const ANSWERS: Record<string, ApprovalAnswer> = {
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
};

/** Lines typed by the user, shared by the conversation and the approval prompts. */
function lineReader(io: CliIo) {
  const lines = io.stdin?.[Symbol.asyncIterator]();
  return {
    available: lines !== undefined,
    async next(): Promise<string | undefined> {
      if (!lines) return undefined;
      const next = await lines.next();
      return next.done ? undefined : String(next.value);
    },
  };
}

/**
 * The terminal's approver: shows the call and why the rules ask, and waits for yes / no / always.
 * An unreadable answer is asked again; the end of input is "no".
 */
function terminalApprover(io: CliIo, lines: ReturnType<typeof lineReader>) {
  return async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    io.stdout(`\n? ${describeCall(request)}\n  (${request.reason})\n`);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      io.stdout(
        `  Allow? [y]es / [n]o / [a]lways (adds ${bidiControlsShown(oneLineShown(request.always))} for this session): `,
      );
      const line = await lines.next();
      if (line === undefined) break;
      const answer = ANSWERS[line.trim().toLowerCase()];
      if (answer) return answer;
    }
    io.stdout('  no\n');
    return 'no';
  };
}

/** Rule lists given on the command line (`--allow` may repeat). */
function ruleFlags(values: Record<string, unknown>): Partial<PermissionSettings> {
  const list = (name: string) => {
    const value = values[name];
    return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  };
  const mode = values['permission-mode'];
  let defaultMode: PermissionMode | undefined;
  if (typeof mode === 'string') {
    const parsed = PermissionMode.safeParse(mode);
    if (!parsed.success)
      throw new CohortError(
        'invalid_input',
        `${refusedValue('--permission-mode', oneOf(PermissionMode.options), mode)}.\nUsage: ${usage}`,
        { field: 'permission-mode' },
      );
    defaultMode = parsed.data;
  }
  const rules = { allow: list('allow'), ask: list('ask'), deny: list('deny') };
  for (const rule of [...rules.allow, ...rules.ask, ...rules.deny]) parsePermissionRule(rule);
  return { ...rules, ...(defaultMode ? { defaultMode } : {}) };
}

/**
 * Builds `cohort code`; `model` replaces the configured provider (tests pass scripted models).
 * With a task it runs one turn; without one it is an interactive session (one turn per line,
 * every turn seeing the whole conversation; `/exit` or the end of input ends it). `--session ID`
 * keeps the conversation in the store and continues it next time. A call the permission rules
 * say to ask about is shown and waits for yes / no / always.
 *
 * @example
 * const command = createCodeCommand();
 * await command.run(['fix the failing test', '--workspace', '.'], processIo());
 */
export function createCodeCommand(
  options: { model?: (ref: string) => LanguageModelV3; clock?: () => number } = {},
): CliCommand {
  return {
    name: 'code',
    summary: 'Run the coding assistant (skills + subagents) on a workspace',
    usage,
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(
        args,
        {
          workspace: { type: 'string' },
          skill: { type: 'string' },
          json: { type: 'boolean' },
          session: { type: 'string' },
          allow: { type: 'string', multiple: true },
          ask: { type: 'string', multiple: true },
          deny: { type: 'string', multiple: true },
          'permission-mode': { type: 'string' },
          ...STORE_FLAGS,
        },
        usage,
      );
      const session = stringFlag(values, 'session');
      if (session !== undefined && !CODE_SESSION_ID.test(session))
        throw new CohortError(
          'invalid_input',
          `${refusedValue('--session', CODE_SESSION_ID_RULE, session)}.`,
          { field: 'session' },
        );
      const task = positionals.join(' ').trim();
      const lines = lineReader(io);
      if (!task && (!lines.available || values.json)) requirePositional(positionals, 'task', usage);
      const permissions = ruleFlags(values);
      // Checked before the model so a wrong --workspace is reported as such.
      const workspace = createWorkspace(
        resolve(io.cwd, stringFlag(values, 'workspace') ?? '.'),
      ).root;
      // On a terminal, the folder's unapproved cohort.config.json settings and MCP servers are
      // asked about once each (y/N).
      const interactive = canAsk(io) && lines.available && !values.json;
      const config = interactive
        ? await configAskingForApproval(io, values, () => lines.next())
        : configFor(io, values);
      // The workspace's .claude settings and skills widen the rules only once approved: on a
      // terminal each is asked about (y/N), otherwise, or when declined, stderr says which did not.
      let asking = interactive;
      for (const review of unapprovedWorkspaceSettings(io, workspace)) {
        const answer = asking ? await askToApproveConfig(io, review, () => lines.next()) : false;
        if (answer === undefined) asking = false;
        if (!answer) tellUnapproved(io, review);
      }
      let coding;
      try {
        coding = openCoding({ config, ...(options.model ? { model: options.model } : {}) });
      } catch (error) {
        // No model: say how to configure one, without the usual `cohort code:` error prefix.
        if (!isCohortError(error, 'model_not_configured')) throw error;
        io.stderr(`${error.message}\n`);
        return 1;
      }
      const clock = options.clock ?? Date.now;
      const store = session ? await openStore(config) : undefined;
      try {
        let history: ModelMessage[] =
          store && session ? await loadCodeSession(store.runs, session) : [];
        let saved = history.length;
        let sessionAllow: string[] = [];
        // --skill is asked for by name, as the API's `skill` is (an unknown name is an error, not
        // ignored: a typo would drop a restricting skill's tool limits); later turns keep the
        // skill active as a conversation does.
        let requestedSkill = stringFlag(values, 'skill');
        let activeSkill: string | undefined;
        const approve = lines.available && !values.json ? terminalApprover(io, lines) : undefined;
        const turn = async (request: string): Promise<number> => {
          const view = createTreeView(io, clock);
          const result = await coding.run({
            request,
            workspace,
            history,
            sessionAllow,
            permissions,
            ...(approve ? { approve } : {}),
            ...(requestedSkill ? { skill: requestedSkill } : {}),
            ...(activeSkill ? { activeSkill } : {}),
            ...(io.env.HOME ? { home: io.env.HOME } : {}),
            env: io.env,
            clock,
            onEvent(event) {
              if (values.json) return;
              if (event.type === 'skill' && event.activation.skill)
                io.stdout(`skill: ${event.activation.skill.name} (${event.activation.reason})\n`);
              if (isSubagentEvent(event)) view.handle(event);
            },
          });
          history = result.messages;
          sessionAllow = result.sessionAllow;
          requestedSkill = undefined;
          activeSkill = result.activation.skill?.name ?? activeSkill;
          if (store && session && !result.pending) {
            // Only what this process added since its last save: another process's turns in the
            // same session (a shared PostgreSQL) are kept.
            await saveCodeSession(store.runs, session, history, { after: saved });
            saved = history.length;
          }
          return printResult(io, result, Boolean(values.json));
        };
        if (task) return await turn(task);
        let status = 0;
        for (;;) {
          io.stdout('> ');
          const line = await lines.next();
          if (line === undefined || line.trim() === '/exit') break;
          if (!line.trim()) continue;
          status = await turn(line.trim());
        }
        io.stdout('\n');
        return status;
      } finally {
        await store?.close();
      }
    },
  };
}

/** Prints one turn's result (JSON or text) and returns the exit code. */
function printResult(io: CliIo, result: CodingAgentResult, json: boolean): number {
  if (json) {
    io.stdout(
      JSON.stringify(
        toWire({
          answer: result.text,
          skill: result.activation.skill?.name ?? null,
          model: result.model,
          finishReason: result.finishReason,
          usage: result.usage,
          totalUsage: result.totalUsage,
          subagents: result.subagents,
          ...(result.pending ? { pending: result.pending } : {}),
        }),
        null,
        2,
      ) + '\n',
    );
    return result.finishReason === 'stop' ? 0 : 1;
  }
  if (result.pending) {
    io.stderr(
      `The run waits for approval of: ${result.pending.map((call) => describeCall(call)).join('; ')}.\n` +
        `Run cohort code interactively to answer, or allow it with --allow '${result.pending[0]?.always}' (or a rule in .claude/settings.json).\n`,
    );
    return 1;
  }
  if (result.subagents.length > 0) io.stdout('\n');
  io.stdout(`${result.text.trim() || '(no answer)'}\n`);
  // A run that ended other than with an answer (the step cap, a budget) fails, with or without
  // text on the way: that text is not the final answer. The message says how to go further.
  const finished = result.finishReason === 'stop';
  if (!finished || result.stopMessage) {
    io.stderr(`${result.stopMessage ?? 'The coding agent stopped without an answer.'}\n`);
  }
  const sub = result.totalUsage.totalTokens - result.usage.totalTokens;
  io.stdout(
    `\n[${result.model} · ${countOf(result.usage.totalTokens, 'token', { format: true })} main + ${formatNumber(sub)} in ${countOf(result.subagents.length, 'subagent')}]\n`,
  );
  return finished ? 0 : 1;
}

/** `cohort code`: the coding assistant on the configured model. */
export const codeCommand: CliCommand = createCodeCommand();
