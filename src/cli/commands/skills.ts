import { resolve } from 'node:path';
import { CohortError } from '../../errors/index.js';
import { toWire } from '../../schema/index.js';
import { loadSkills } from '../../skills/index.js';
import { loadSubagentTypes } from '../../subagents/index.js';
import { createWorkspace } from '../../tools/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs, stringFlag } from '../args.js';

const usage = 'cohort skills [--workspace DIR] [--json]';

/** `cohort skills`: the skills and subagent types a workspace has, and every malformed file. */
export const skillsCommand: CliCommand = {
  name: 'skills',
  summary: 'List the skills and subagent types found for a workspace, and any malformed ones',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { workspace: { type: 'string' }, json: { type: 'boolean' } },
      usage,
    );
    if (positionals.length > 0) {
      throw new CohortError(
        'invalid_input',
        `Unexpected argument "${positionals[0]}".\nUsage: ${usage}`,
      );
    }
    const workspace = createWorkspace(resolve(io.cwd, stringFlag(values, 'workspace') ?? '.'));
    const home = io.env.HOME;
    const catalog = loadSkills({ workspace: workspace.root, ...(home ? { home } : {}) });
    const agents = loadSubagentTypes(workspace.root, home ? { home } : {});
    if (values.json) {
      io.stdout(
        JSON.stringify(
          toWire({
            skills: catalog.skills.map(
              ({ name, description, source, file, allowedTools, model }) => ({
                name,
                description,
                source,
                file,
                allowedTools,
                model,
              }),
            ),
            shadowed: catalog.shadowed,
            problems: catalog.problems,
            subagents: [...agents.types.values()].map(
              ({ name, description, model, tools, source }) => ({
                name,
                description,
                model,
                tools,
                source,
              }),
            ),
            subagentProblems: agents.problems,
          }),
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    const lines: string[] = [`Skills (${catalog.skills.length}):`];
    if (catalog.skills.length === 0)
      lines.push('  none found in skills/, .cohort/skills/ or ~/.config/cohort/skills/');
    const width = Math.max(0, ...catalog.skills.map((skill) => skill.name.length));
    for (const skill of catalog.skills) {
      const limits = [
        skill.allowedTools ? `tools: ${skill.allowedTools.join(' ')}` : '',
        skill.model ? `model: ${skill.model}` : '',
      ]
        .filter(Boolean)
        .join('; ');
      lines.push(`  ${skill.name.padEnd(width)}  ${skill.description}`);
      lines.push(
        `  ${''.padEnd(width)}  from ${skill.source}: ${skill.file}${limits ? ` (${limits})` : ''}`,
      );
    }
    if (catalog.shadowed.length > 0) {
      lines.push('', `Shadowed (${catalog.shadowed.length}):`);
      for (const entry of catalog.shadowed)
        lines.push(`  ${entry.name}: ${entry.file} is hidden by ${entry.shadowedBy}`);
    }
    if (catalog.problems.length > 0) {
      lines.push('', `Malformed skills, skipped (${catalog.problems.length}):`);
      for (const problem of catalog.problems) lines.push(`  ${problem.file}: ${problem.reason}`);
    }
    lines.push('', `Subagent types (${agents.types.size}):`);
    for (const type of agents.types.values()) {
      lines.push(
        `  ${type.name} [${type.model}; ${type.tools ? type.tools.join(', ') : 'all tools'}] from ${type.source}`,
      );
    }
    if (agents.problems.length > 0) {
      lines.push('', `Malformed subagent files, skipped (${agents.problems.length}):`);
      for (const problem of agents.problems) lines.push(`  ${problem.file}: ${problem.reason}`);
    }
    io.stdout(lines.join('\n') + '\n');
    return 0;
  },
};
