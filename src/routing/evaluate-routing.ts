import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CohortError, parseInput } from '../errors/index.js';
import type { RouteResult } from '../schema/index.js';

/** One line of a routing evaluation set (`{"query","agent","secondary"}` JSONL). */
export const RoutingCase = z.object({
  query: z.string().trim().min(1, 'query must not be empty'),
  agent: z.string().trim().min(1, 'agent must not be empty'),
  secondary: z.array(z.string().trim().min(1)).default([]),
});
export type RoutingCase = z.infer<typeof RoutingCase>;

/** Confidence buckets of the calibration table: [lower, upper). */
export const CALIBRATION_BUCKETS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.9],
  [0.9, 1.0001],
];

/** Precision, recall and F1 of one agent as the primary route. */
export interface AgentRoutingScore {
  precision: number;
  recall: number;
  f1: number;
  /** How many cases expect this agent. */
  support: number;
}

/** A case the router got wrong (primary or secondary agents). */
export interface RoutingMiss {
  query: string;
  expected: string;
  routed: string;
  expectedSecondary: string[];
  routedSecondary: string[];
  confidence: number;
  phase: RouteResult['phase'];
  reason: string;
}

/** The outcome of {@link evaluateRouting}. */
export interface RoutingEvaluation {
  total: number;
  correct: number;
  /** Share of cases whose primary agent is right. */
  accuracy: number;
  secondary: {
    /** Share of cases whose secondary agents are exactly right (usually: none expected, none given). */
    exact: number;
    /** Of the secondary agents given, the share that were expected (1 when none were given). */
    precision: number;
    /** Of the secondary agents expected, the share that were given (1 when none were expected). */
    recall: number;
  };
  perAgent: Record<string, AgentRoutingScore>;
  /** Rows are expected agents, columns routed agents, both in `labels` order. */
  confusion: { labels: string[]; matrix: number[][] };
  /** Mean confidence against accuracy per confidence bucket: a calibrated router has them close. */
  calibration: Array<{
    lower: number;
    upper: number;
    count: number;
    meanConfidence: number;
    accuracy: number;
  }>;
  /** How many cases each phase decided and how many of those it got right. */
  phases: Record<string, { count: number; accuracy: number }>;
  misses: RoutingMiss[];
}

/**
 * Parses routing cases from JSONL text; a bad line is an `invalid_input` error naming the line and field.
 *
 * @example
 * parseRoutingCases('{"query":"hi","agent":"book"}\n'); // [{ query: 'hi', agent: 'book', secondary: [] }]
 */
export function parseRoutingCases(text: string, file = 'routing cases'): RoutingCase[] {
  const cases: RoutingCase[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new CohortError(
        'invalid_input',
        `${where}: not valid JSON (${(cause as Error).message}).`,
        {
          file,
          cause,
        },
      );
    }
    cases.push(parseInput(RoutingCase, value, { file: where }));
  });
  if (cases.length === 0) {
    throw new CohortError(
      'invalid_input',
      `${file}: no routing cases (expected one JSON object per line).`,
      { file },
    );
  }
  return cases;
}

/**
 * Reads a routing evaluation set (JSONL: `{"query","agent","secondary"}` per line).
 *
 * @example
 * const cases = loadRoutingCases('../shared/eval/routing-dev.jsonl');
 */
export function loadRoutingCases(file: string): RoutingCase[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new CohortError(
      'invalid_input',
      `Cannot read routing cases ${file}: ${(cause as Error).message}`,
      {
        file,
        cause,
      },
    );
  }
  return parseRoutingCases(text, file);
}

const ratio = (part: number, whole: number, empty = 0) => (whole === 0 ? empty : part / whole);

/**
 * Routes every case and scores the router: accuracy, secondary-agent precision and recall,
 * per-agent precision/recall/F1, the confusion matrix, calibration by confidence bucket and the misses.
 *
 * @example
 * const result = evaluateRouting(createRouter(registry), loadRoutingCases(file));
 * console.log(formatRoutingReport(result));
 */
export function evaluateRouting(
  router: { route(query: string): RouteResult },
  cases: readonly RoutingCase[],
): RoutingEvaluation {
  const results = cases.map((entry) => ({ entry, result: router.route(entry.query) }));
  const labels = [
    ...new Set([...cases.map((c) => c.agent), ...results.map((r) => r.result.primaryAgent)]),
  ].sort();
  const position = new Map(labels.map((label, i) => [label, i]));
  const matrix = labels.map(() => labels.map(() => 0));
  let correct = 0;
  let exact = 0;
  let givenSecondary = 0;
  let rightSecondary = 0;
  let expectedSecondary = 0;
  let foundSecondary = 0;
  const phases: Record<string, { count: number; right: number }> = {};
  const misses: RoutingMiss[] = [];

  for (const { entry, result } of results) {
    const ok = result.primaryAgent === entry.agent;
    if (ok) correct += 1;
    const row = matrix[position.get(entry.agent) ?? 0];
    const column = position.get(result.primaryAgent) ?? 0;
    if (row) row[column] = (row[column] ?? 0) + 1;
    const phase = (phases[result.phase] ??= { count: 0, right: 0 });
    phase.count += 1;
    if (ok) phase.right += 1;

    const expected = new Set(entry.secondary);
    const given = new Set(result.secondaryAgents);
    const hits = [...given].filter((agent) => expected.has(agent)).length;
    givenSecondary += given.size;
    rightSecondary += hits;
    expectedSecondary += expected.size;
    foundSecondary += [...expected].filter((agent) => given.has(agent)).length;
    const secondaryOk = hits === given.size && given.size === expected.size;
    if (secondaryOk) exact += 1;
    if (!ok || !secondaryOk) {
      misses.push({
        query: entry.query,
        expected: entry.agent,
        routed: result.primaryAgent,
        expectedSecondary: entry.secondary,
        routedSecondary: result.secondaryAgents,
        confidence: result.confidence,
        phase: result.phase,
        reason: result.routingReason,
      });
    }
  }

  const perAgent: Record<string, AgentRoutingScore> = {};
  labels.forEach((label, i) => {
    const truePositives = matrix[i]?.[i] ?? 0;
    const support = (matrix[i] ?? []).reduce((a, b) => a + b, 0);
    const predicted = matrix.reduce((sum, row) => sum + (row[i] ?? 0), 0);
    const precision = ratio(truePositives, predicted);
    const recall = ratio(truePositives, support);
    perAgent[label] = {
      precision,
      recall,
      f1: ratio(2 * precision * recall, precision + recall),
      support,
    };
  });

  const calibration = CALIBRATION_BUCKETS.map(([lower, upper]) => {
    const inside = results.filter(
      ({ result }) => result.confidence >= lower && result.confidence < upper,
    );
    return {
      lower,
      upper: Math.min(upper, 1),
      count: inside.length,
      meanConfidence: ratio(
        inside.reduce((sum, { result }) => sum + result.confidence, 0),
        inside.length,
      ),
      accuracy: ratio(
        inside.filter(({ entry, result }) => result.primaryAgent === entry.agent).length,
        inside.length,
      ),
    };
  });

  return {
    total: cases.length,
    correct,
    accuracy: ratio(correct, cases.length),
    secondary: {
      exact: ratio(exact, cases.length),
      precision: ratio(rightSecondary, givenSecondary, 1),
      recall: ratio(foundSecondary, expectedSecondary, 1),
    },
    perAgent,
    confusion: { labels, matrix },
    calibration,
    phases: Object.fromEntries(
      Object.entries(phases).map(([name, { count, right }]) => [
        name,
        { count, accuracy: ratio(right, count) },
      ]),
    ),
    misses,
  };
}
