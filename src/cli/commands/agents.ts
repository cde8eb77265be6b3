import { describeMode } from '../../assistant/index.js';
import { hasModel } from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import { createBookRegistry } from '../../routing/index.js';
import { toWire } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs } from '../args.js';
import { configFor, STORE_FLAGS } from '../open.js';
import { countOf } from '../../telemetry/index.js';

const usage = 'cohort agents [--json]';

/** `cohort agents`: the registered agents and the answering mode. */
export const agentsCommand: CliCommand = {
  name: 'agents',
  summary: 'List the agents, their domains and keywords, and the answering mode',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, ...STORE_FLAGS },
      usage,
    );
    // `cohort agents glossary` lists them all: say so rather than seem to have filtered.
    if (positionals.length > 0)
      throw new CohortError(
        'invalid_input',
        `Unexpected argument "${positionals[0]}": cohort agents takes no argument (it lists every agent).\nUsage: ${usage}`,
      );
    const config = configFor(io, values);
    const registry = createBookRegistry(config.agentDirs);
    const agents = registry.summaries();
    const mode = describeMode(config);
    if (values.json) {
      io.stdout(
        JSON.stringify(
          toWire({
            agents,
            total: agents.length,
            mode: hasModel(config) ? 'model' : 'extractive',
            defaultAgent: registry.defaultAgent.name,
          }),
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    for (const agent of registry.all()) {
      const marker = agent.name === registry.defaultAgent.name ? ' (fallback)' : '';
      io.stdout(
        `${agent.name}${marker} — ${agent.domain} · model tier ${agent.model}\n  ${agent.description}\n  keywords: ${agent.keywords.join(', ')}\n`,
      );
    }
    io.stdout(`\n${countOf(agents.length, 'agent')} · answering: ${mode}\n`);
    return 0;
  },
};
