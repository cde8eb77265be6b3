import { readCasesFile } from '../config/index.js';
import { CohortError } from '../errors/index.js';
import { parseRoutingCases, type RoutingCase } from '../routing/index.js';
import { casesOfSplit, isSplit, SPLITS, type Split } from './split.js';

/** Most problems one error lists; the rest are counted. */
const LISTED_PROBLEMS = 5;

/**
 * Parses a routing set (JSONL) and checks it against the assistant it is to score: every agent
 * and secondary agent must be one of `agents` and every split one of {@link SPLITS}, or the whole
 * set is refused (`invalid_input`) naming each wrong line and the allowed values. An unknown name
 * (a typo, an agent of another assistant) was scored as a miss, lowering the accuracy without a
 * word. With `split`, only that half is kept.
 *
 * @example
 * const cases = parseRoutingSet(text, 'set.jsonl', { agents: ['glossary', 'book'], split: 'tune' });
 */
export function parseRoutingSet(
  text: string,
  file: string,
  options: { agents: readonly string[]; split?: Split | undefined },
): RoutingCase[] {
  const cases = parseRoutingCases(text, file);
  // parseRoutingCases skips blank lines: the n-th case is the n-th line with text.
  const lineNumbers = text
    .split(/\r?\n/)
    .flatMap((line, index) => (line.trim() === '' ? [] : [index + 1]));
  const known = new Set(options.agents);
  const problems: string[] = [];
  let wrongAgent = false;
  cases.forEach((entry, index) => {
    const where = `${file}:${lineNumbers[index] ?? index + 1}`;
    if (!known.has(entry.agent)) {
      problems.push(`${where}: agent "${entry.agent}" is not an agent of this assistant`);
      wrongAgent = true;
    }
    for (const name of entry.secondary.filter((name) => !known.has(name))) {
      problems.push(`${where}: secondary agent "${name}" is not an agent of this assistant`);
      wrongAgent = true;
    }
    if (entry.split !== undefined && !isSplit(entry.split))
      problems.push(`${where}: split "${entry.split}" must be ${SPLITS.join(' or ')}`);
  });
  if (problems.length > 0) {
    const more = problems.length - LISTED_PROBLEMS;
    throw new CohortError(
      'invalid_input',
      [
        ...problems.slice(0, LISTED_PROBLEMS),
        ...(more > 0 ? [`… and ${more} more`] : []),
        `${wrongAgent ? `The agents are: ${[...known].sort().join(', ')} (cohort agents lists them). ` : ''}Nothing was evaluated: correct the set and run it again.`,
      ].join('\n'),
      { file },
    );
  }
  return casesOfSplit(cases, options.split, 'routing case');
}

/**
 * Reads a routing set from `file` and checks it (see {@link parseRoutingSet}).
 *
 * @example
 * const cases = loadRoutingSet('eval/routing-blind.jsonl', { agents: registry.all().map((a) => a.name) });
 */
export function loadRoutingSet(
  file: string,
  options: { agents: readonly string[]; split?: Split | undefined },
): RoutingCase[] {
  // Bounded, as the other eval sets are: `cohort eval routing /dev/zero` read without end.
  return parseRoutingSet(readCasesFile(file, 'routing set'), file, options);
}
