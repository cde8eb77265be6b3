import * as z from 'zod';
import { CohortError, parseInput } from '../errors/index.js';
import { readCasesFile } from '../config/index.js';
import { activateSkill, type Skill } from '../skills/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** One labelled task: the skill it should activate (`null`: none should), and its split. */
export const SkillCase = lazySchema(() =>
  z.object({
    task: z.string().trim().min(1, 'task must not be empty'),
    skill: z.string().min(1).nullable(),
    split: z.enum(['tune', 'heldout']).optional(),
  }),
);
export type SkillCase = z.infer<typeof SkillCase>;

/** The label of "no skill" in the confusion table. */
export const NO_SKILL = '(none)';

/** Accuracy of one group of cases. */
export interface SkillAccuracy {
  cases: number;
  correct: number;
  accuracy: number;
}

/** What {@link evaluateSkills} measures. */
export interface SkillReport extends SkillAccuracy {
  /** Per split (`tune`, `heldout`), when the cases have one. */
  splits: Record<string, SkillAccuracy>;
  /** `confusion[expected][activated]`: how many cases. */
  confusion: Record<string, Record<string, number>>;
  /** The cases activation got wrong, with its reason. */
  misses: Array<{
    task: string;
    expected: string;
    activated: string;
    split?: string;
    reason: string;
  }>;
}

/**
 * Reads a JSONL file of {@link SkillCase}s; a bad line is `invalid_input` naming its line number.
 *
 * @example
 * const cases = loadSkillCases('eval/skills-blind.jsonl');
 */
export function loadSkillCases(file: string): SkillCase[] {
  const lines = readCasesFile(file, 'skill set').split('\n');
  const cases: SkillCase[] = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      throw new CohortError('invalid_input', `${file}:${index + 1}: not valid JSON`, { file });
    }
    cases.push(parseInput(SkillCase, data, { file: `${file}:${index + 1}` }));
  });
  if (cases.length === 0) throw new CohortError('invalid_input', `${file}: no cases`, { file });
  return cases;
}

const rate = (correct: number, cases: number): SkillAccuracy => ({
  cases,
  correct,
  accuracy: cases === 0 ? 0 : Math.round((correct / cases) * 1000) / 1000,
});

/** Most unknown names one error lists; the rest are counted. */
const LISTED_UNKNOWN = 5;

/**
 * Refuses a set labelling a skill the workspace does not have (a typo, a skill of another
 * project): it was scored as a miss, lowering the accuracy without a word.
 */
function refuseUnknownSkills(skills: readonly Skill[], cases: readonly SkillCase[]): void {
  const known = new Set(skills.map((skill) => skill.name));
  const unknown = [
    ...new Set(
      cases.flatMap((entry) => (entry.skill && !known.has(entry.skill) ? [entry.skill] : [])),
    ),
  ];
  if (unknown.length === 0) return;
  const more = unknown.length - LISTED_UNKNOWN;
  throw new CohortError(
    'invalid_input',
    `The skill set labels ${unknown.length === 1 ? 'a skill' : 'skills'} this workspace does not have: ` +
      `${unknown
        .slice(0, LISTED_UNKNOWN)
        .map((name) => `"${name}"`)
        .join(', ')}${more > 0 ? ` and ${more} more` : ''}. ` +
      `Its skills are: ${[...known].sort().join(', ')} (cohort skills lists them; --workspace DIR ` +
      `names another workspace). Nothing was evaluated.`,
    { field: 'skill' },
  );
}

/**
 * Runs automatic skill activation (the same {@link activateSkill} `cohort code` uses, model-free)
 * on every case and measures how often it picks the labelled skill, or none when none is labelled.
 *
 * @example
 * const report = evaluateSkills(loadSkills({ workspace: '.' }).skills, loadSkillCases(file));
 * report.splits.heldout?.accuracy; // 0.94
 */
export function evaluateSkills(skills: readonly Skill[], cases: readonly SkillCase[]): SkillReport {
  refuseUnknownSkills(skills, cases);
  const confusion: SkillReport['confusion'] = {};
  const misses: SkillReport['misses'] = [];
  const bySplit = new Map<string, { correct: number; cases: number }>();
  let correct = 0;
  for (const entry of cases) {
    const activation = activateSkill(entry.task, skills);
    const expected = entry.skill ?? NO_SKILL;
    const activated = activation.skill?.name ?? NO_SKILL;
    const row = (confusion[expected] ??= {});
    row[activated] = (row[activated] ?? 0) + 1;
    const right = expected === activated;
    if (right) correct += 1;
    else
      misses.push({
        task: entry.task,
        expected,
        activated,
        ...(entry.split ? { split: entry.split } : {}),
        reason: activation.reason,
      });
    if (entry.split) {
      const split = bySplit.get(entry.split) ?? { correct: 0, cases: 0 };
      split.cases += 1;
      if (right) split.correct += 1;
      bySplit.set(entry.split, split);
    }
  }
  return {
    ...rate(correct, cases.length),
    splits: Object.fromEntries(
      [...bySplit].map(([name, split]) => [name, rate(split.correct, split.cases)]),
    ),
    confusion,
    misses,
  };
}

/**
 * The report as text: accuracy (overall and per split), then the confusion table (rows: labelled
 * skill; columns: activated skill), then the misses.
 */
export function formatSkillReport(report: SkillReport): string {
  const labels = [
    ...new Set([
      ...Object.keys(report.confusion),
      ...Object.values(report.confusion).flatMap((row) => Object.keys(row)),
    ]),
  ].sort((a, b) => (a === NO_SKILL ? 1 : b === NO_SKILL ? -1 : a.localeCompare(b)));
  const width = Math.max(9, ...labels.map((label) => label.length)) + 2;
  const cell = (text: string | number) => String(text).padStart(width);
  const lines = [
    `cases:    ${report.cases}`,
    `accuracy: ${report.accuracy.toFixed(3)} (${report.correct}/${report.cases})`,
    ...Object.entries(report.splits).map(
      ([name, split]) =>
        `  ${name.padEnd(8)}${split.accuracy.toFixed(3)} (${split.correct}/${split.cases})`,
    ),
    '',
    `${'expected \\ activated'.padEnd(width + 12)}${labels.map(cell).join('')}`,
    ...labels
      .filter((label) => report.confusion[label])
      .map(
        (label) =>
          `${label.padEnd(width + 12)}${labels.map((column) => cell(report.confusion[label]?.[column] ?? 0)).join('')}`,
      ),
  ];
  if (report.misses.length > 0) {
    lines.push('', 'misses:');
    for (const miss of report.misses)
      lines.push(`  [${miss.split ?? '-'}] ${miss.expected} → ${miss.activated}: ${miss.task}`);
  }
  return lines.join('\n');
}
