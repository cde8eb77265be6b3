import { resolve } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { loadConfig } from '../../config/index.js';
import { CohortError, isCohortError } from '../../errors/index.js';
import {
  createSubagentTracker,
  describeSubagent,
  isSubagentEvent,
  renderSubagentTree,
} from '../../subagents/index.js';
import { openCoding } from '../../coding/index.js';
import { createWorkspace } from '../../tools/index.js';
import type { CliCommand, CliIo } from '../command.js';
import { parseCommandArgs, requirePositional, stringFlag } from '../args.js';

const usage = 'cohort code "<task>" [--workspace DIR] [--skill NAME] [--json]';
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
    io.stdout(
      `${drawn > 0 ? `\x1b[${drawn}A\x1b[0J` : ''}${lines.join('\n')}${lines.length ? '\n' : ''}`,
    );
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
 * Builds `cohort code`; `model` replaces the configured provider (tests pass scripted models).
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
        { workspace: { type: 'string' }, skill: { type: 'string' }, json: { type: 'boolean' } },
        usage,
      );
      const request = requirePositional(positionals, 'task', usage);
      // Checked before the model so a wrong --workspace is reported as such.
      const workspace = createWorkspace(
        resolve(io.cwd, stringFlag(values, 'workspace') ?? '.'),
      ).root;
      const config = loadConfig({ env: io.env, cwd: io.cwd });
      let coding;
      try {
        coding = openCoding({ config, ...(options.model ? { model: options.model } : {}) });
      } catch (error) {
        // No model: say how to configure one, without the usual `cohort code:` error prefix.
        if (!isCohortError(error, 'model_unavailable')) throw error;
        io.stderr(`${error.message}\n`);
        return 1;
      }
      const clock = options.clock ?? Date.now;
      const view = createTreeView(io, clock);
      const skill = stringFlag(values, 'skill');
      const result = await coding.run({
        request,
        workspace,
        ...(skill ? { skill } : {}),
        ...(io.env.HOME ? { home: io.env.HOME } : {}),
        clock,
        onEvent(event) {
          if (values.json) return;
          if (event.type === 'skill' && event.activation.skill)
            io.stdout(`skill: ${event.activation.skill.name} (${event.activation.reason})\n`);
          if (isSubagentEvent(event)) view.handle(event);
        },
      });
      if (values.json) {
        io.stdout(
          JSON.stringify(
            {
              answer: result.text,
              skill: result.activation.skill?.name ?? null,
              model: result.model,
              finishReason: result.finishReason,
              usage: result.usage,
              totalUsage: result.totalUsage,
              subagents: result.subagents,
            },
            null,
            2,
          ) + '\n',
        );
        return result.finishReason === 'stop' ? 0 : 1;
      }
      if (result.subagents.length > 0) io.stdout('\n');
      io.stdout(`${result.text.trim() || '(no answer)'}\n`);
      if (result.stopMessage) io.stderr(`${result.stopMessage}\n`);
      const sub = result.totalUsage.totalTokens - result.usage.totalTokens;
      io.stdout(
        `\n[${result.model} · ${result.usage.totalTokens.toLocaleString('en-US')} tokens main + ${sub.toLocaleString('en-US')} in ${result.subagents.length} subagent(s)]\n`,
      );
      if (result.finishReason !== 'stop' && !result.text.trim()) {
        throw new CohortError(
          'budget_exceeded',
          result.stopMessage ?? 'The coding agent stopped without an answer.',
        );
      }
      return 0;
    },
  };
}

/** `cohort code`: the coding assistant on the configured model. */
export const codeCommand: CliCommand = createCodeCommand();
