import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CohortError } from '../../errors/index.js';
import {
  evaluateAnswersOnCorpus,
  evaluateRetrievalOnCorpus,
  evaluateSkills,
  formatAnswerReport,
  formatRoutingReport,
  formatSkillReport,
  casesOfSplit,
  loadRoutingSet,
  loadSkillCases,
  parseSplit,
  unknownGoldLines,
} from '../../eval/index.js';
import { loadSkills } from '../../skills/index.js';
import { createBookRegistry, evaluateRouting } from '../../routing/index.js';
import { toWire } from '../../schema/index.js';
import { createLogger } from '../../telemetry/index.js';
import type { CliCommand, CliIo } from '../command.js';
import { parseCommandArgs, stringFlag, type ParsedArgs } from '../args.js';
import { configFor, openForCli, routerAsAnswered, STORE_FLAGS } from '../open.js';

const usage = [
  'cohort eval routing [file.jsonl] [--split tune|heldout] [--json] [--data-dir DIR]',
  '       cohort eval retrieval [file.jsonl] [--corpus DIR] [--json]',
  '       cohort eval answers [file.jsonl] [--corpus DIR] [--json]',
  '       cohort eval skills [file.jsonl] [--split tune|heldout] [--workspace DIR] [--json]',
].join('\n');

/** Default labelled sets and corpus, beside the project as in CI. */
export const EVAL_DEFAULTS = {
  routing: '../shared/eval/routing-dev.jsonl',
  retrieval: '../shared/eval/retrieval-dev.jsonl',
  answers: '../shared/eval/retrieval-dev.jsonl',
  corpus: '../shared/corpus/physical-ai-book',
  skills: 'eval/skills-blind.jsonl',
} as const;

function existing(io: CliIo, path: string, what: string, hint?: string): string {
  const full = resolve(io.cwd, path);
  if (!existsSync(full))
    throw new CohortError('invalid_input', `${what} not found: ${full}${hint ? `. ${hint}` : ''}`, {
      file: full,
    });
  return full;
}

/** What to give instead of a default path that is not there (a clone without `../shared`). */
const CORPUS_HINT = 'Give the book folder with --corpus DIR.';

/** What to give instead of the default answer set when it is not there. */
const SET_HINT = 'Give a set: cohort eval answers FILE.jsonl --corpus DIR.';

/** The corpus folder: `--corpus`, else the default beside the project. */
function corpusFolder(io: CliIo, values: ParsedArgs['values']): string {
  const given = stringFlag(values, 'corpus');
  return existing(
    io,
    given ?? EVAL_DEFAULTS.corpus,
    'Corpus folder',
    given ? undefined : CORPUS_HINT,
  );
}

/**
 * The corpus folder checked first when the user typed `--corpus` and no set: its error is the one
 * to act on (`--corpus /no/such/book` was answered with the default set's absence on a clone
 * without `../shared`). Undefined otherwise, checked after the set as before.
 */
function typedCorpusFirst(
  io: CliIo,
  values: ParsedArgs['values'],
  file: string | undefined,
): string | undefined {
  return stringFlag(values, 'corpus') !== undefined && file === undefined
    ? corpusFolder(io, values)
    : undefined;
}

/** Evaluations that take no `--split`: they report every split of a set, or have none. */
const WITHOUT_SPLIT = ['retrieval', 'answers'];

/** `cohort eval`: accuracy of the router and recall of the retriever on labelled sets. */
export const evalCommand: CliCommand = {
  name: 'eval',
  summary: 'Evaluate routing, retrieval or whole answers on a labelled JSONL set',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        json: { type: 'boolean' },
        corpus: { type: 'string' },
        split: { type: 'string' },
        workspace: { type: 'string' },
        ...STORE_FLAGS,
      },
      usage,
    );
    const [target, file] = positionals;
    // Before anything is read or opened: a value no set uses, or a flag the evaluation ignores.
    const split = parseSplit(stringFlag(values, 'split'));
    if (split !== undefined && target !== undefined && WITHOUT_SPLIT.includes(target))
      throw new CohortError(
        'invalid_input',
        `--split applies to eval routing and eval skills: eval ${target} ${
          target === 'answers'
            ? 'reports each split of the set on its own line (per split)'
            : 'has no split'
        }; give a set holding only the cases you want.`,
        { field: 'split' },
      );
    if (target === 'routing') {
      // Checked against the assistant's agents before the store is opened: an unknown name in
      // the set is refused, not scored as a miss.
      const config = configFor(io, values);
      const agents = createBookRegistry(config.agentDirs)
        .all()
        .map((agent) => agent.name);
      const cases = loadRoutingSet(existing(io, file ?? EVAL_DEFAULTS.routing, 'Routing set'), {
        agents,
        split,
      });
      // The assistant's own router, built from the agents and from what the store's book covers,
      // deciding as `/route` and an answer do (in the book's spelling).
      const opened = await openForCli(io, values, { config });
      let result;
      try {
        result = evaluateRouting(await routerAsAnswered(opened), cases);
      } finally {
        await opened.close();
      }
      io.stdout(
        values.json
          ? JSON.stringify(toWire(result), null, 2) + '\n'
          : formatRoutingReport(result, { hideMisses: split === 'heldout' }) + '\n',
      );
      return 0;
    }
    if (target === 'retrieval') {
      const corpusFirst = typedCorpusFirst(io, values, file);
      const casesFile = existing(io, file ?? EVAL_DEFAULTS.retrieval, 'Retrieval set');
      const corpusDir = corpusFirst ?? corpusFolder(io, values);
      const result = await evaluateRetrievalOnCorpus({
        corpusDir,
        casesFile,
        dataDir: 'memory://',
      });
      if (values.json) {
        io.stdout(JSON.stringify(toWire(result), null, 2) + '\n');
        return 0;
      }
      io.stdout(
        [
          `cases:     ${result.perQuery.length}`,
          `recall@1:  ${result.recallAt1.toFixed(3)}`,
          `recall@5:  ${result.recallAt5.toFixed(3)}`,
          `recall@10: ${result.recallAt10.toFixed(3)}`,
          `MRR:       ${result.mrr.toFixed(3)}`,
          ...unknownGoldLines(result.unknownGold),
        ].join('\n') + '\n',
      );
      return 0;
    }
    if (target === 'answers') {
      const config = configFor(io, values);
      const corpusFirst = typedCorpusFirst(io, values, file);
      // A missing default is an error, as for `eval retrieval`: a skip that exits 0 would read as
      // a measured run in a script or CI.
      const casesFile = existing(
        io,
        file ?? EVAL_DEFAULTS.answers,
        'Answer set',
        file ? undefined : SET_HINT,
      );
      const corpusDir = corpusFirst ?? corpusFolder(io, values);
      const report = await evaluateAnswersOnCorpus({
        corpusDir,
        casesFile,
        config,
        logger: createLogger({ level: config.logLevel, write: (line) => io.stderr(line + '\n') }),
      });
      io.stdout(
        (values.json ? JSON.stringify(toWire(report), null, 2) : formatAnswerReport(report)) + '\n',
      );
      return 0;
    }
    if (target === 'skills') {
      const all = loadSkillCases(existing(io, file ?? EVAL_DEFAULTS.skills, 'Skill set'));
      const cases = casesOfSplit(all, split, 'skill case');
      // The skills of the workspace (default: here), as cohort code would load them.
      const workspace = resolve(io.cwd, stringFlag(values, 'workspace') ?? '.');
      const { skills } = loadSkills({ workspace, ...(io.env.HOME ? { home: io.env.HOME } : {}) });
      if (skills.length === 0)
        throw new CohortError(
          'invalid_input',
          `No skills found in ${workspace}: pass --workspace DIR.`,
          {
            field: 'workspace',
          },
        );
      const report = evaluateSkills(skills, cases);
      io.stdout(
        (values.json ? JSON.stringify(toWire(report), null, 2) : formatSkillReport(report)) + '\n',
      );
      return 0;
    }
    throw new CohortError(
      'invalid_input',
      `Unknown evaluation "${target ?? ''}": use routing, retrieval, answers or skills.\nUsage: ${usage}`,
      {
        field: 'target',
      },
    );
  },
};
