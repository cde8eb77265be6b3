import { CohortError, parseInput } from '../../errors/index.js';
import { openResearch } from '../../research/index.js';
import { EMPTY_QUERY_MESSAGE, MAX_RESEARCH_TASKS, Query, toWire } from '../../schema/index.js';
import type { CliCommand } from '../command.js';
import { integerFlag, parseCommandArgs, requirePositional, stringFlag } from '../args.js';
import { configFor, openWithProgress, STORE_FLAGS } from '../open.js';
import { isNewDataFolder, LOCK_FILE_NAME, storeFolder } from '../../store/index.js';
import { createResearchView } from './research-view.js';

const usage =
  'cohort research "<question>" [--tasks N] [--json] [--resume ID] [--data-dir DIR] [--config FILE]';

/**
 * `cohort research`: plans tasks, runs one research subagent per task in parallel (internal
 * knowledge base, web, arXiv, Semantic Scholar), shows them live, and prints the cited report.
 * Ctrl-C stops the run so that `--resume ID` can continue it.
 */
export const researchCommand: CliCommand = {
  name: 'research',
  summary: 'Research a question with parallel subagents (book, web, papers)',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        tasks: { type: 'string' },
        json: { type: 'boolean' },
        resume: { type: 'string' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const resume = stringFlag(values, 'resume');
    // Resuming needs no question; a new run does.
    const question = resume
      ? positionals.join(' ').trim()
      : requirePositional(positionals, 'question', usage, EMPTY_QUERY_MESSAGE);
    const maxTasks = integerFlag(values, 'tasks', { min: 1, max: MAX_RESEARCH_TASKS }, usage);
    // Checked before the store opens, as ask and route do: a question the run refuses (over 2,000
    // characters, a NUL) made a new data folder and ingested the book first.
    if (!resume) parseInput(Query, question, { prefix: 'Research question: ' });
    // Read once (a configuration given through a pipe cannot be read again).
    const config = configFor(io, values);
    // A run to resume lives in a store that exists: opening a data folder that does not (or one
    // in memory) would create it and ingest the book before saying there is no such run.
    const folder = storeFolder(config);
    if (
      resume &&
      !config.databaseUrl &&
      (folder === undefined || isNewDataFolder(folder, LOCK_FILE_NAME))
    )
      throw new CohortError(
        'not_found',
        `No research run "${resume}": the data folder ${config.dataDir} holds no store (nothing was created). Give the --data-dir the run used.`,
      );
    // The knowledge base alone: research needs no router, agents or assistant.
    const research = await openWithProgress(
      io,
      values,
      openResearch,
      (opened) => opened.knowledgeBase.ingested,
      config,
    );
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    try {
      if (!research.dependencies.model)
        io.stderr('No model is configured: findings will be extractive quotes of the sources.\n');
      const view = values.json
        ? undefined
        : createResearchView({
            write: io.stderr,
            control: (sequence) => io.control?.('stderr', sequence),
            isTTY: io.isTTY,
            now: Date.now,
          });
      const result = await research.run(question, {
        ...(maxTasks ? { maxTasks } : {}),
        ...(resume ? { resume } : {}),
        signal: controller.signal,
        ...(view ? { onEvent: view.onEvent } : {}),
      });
      if (values.json) {
        const { runId, tasks, findings, sources, report } = result;
        io.stdout(
          JSON.stringify(
            toWire({ runId, question: result.question, tasks, findings, sources, report }),
            null,
            2,
          ) + '\n',
        );
      } else {
        io.stdout(`\n${result.report}`);
      }
      return 0;
    } finally {
      process.removeListener('SIGINT', stop);
      await research.close();
    }
  },
};
