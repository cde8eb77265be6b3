import * as z from 'zod';
import { readCasesFile } from '../config/index.js';
import { CohortError, parseInput } from '../errors/index.js';
import type { RouteResult } from '../schema/index.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** One line of a routing evaluation set (`{"query","agent","secondary"}` JSONL). */
export const RoutingCase = lazySchema(() =>
  z.object({
    query: z.string().trim().min(1, 'query must not be empty'),
    agent: z.string().trim().min(1, 'agent must not be empty'),
    secondary: z.array(z.string().trim().min(1)).default([]),
    /** Which half of a blind set the case belongs to: tune on `tune`, only report `heldout`. */
    split: z.string().trim().min(1).optional(),
    /** The case's main difficulty (offtopic, typo, multipart...), for per-kind figures. */
    kind: z.string().trim().min(1).optional(),
  }),
);
export type RoutingCase = z.infer<typeof RoutingCase>;

/** Confidence buckets of the calibration table: [lower, upper). */
export const CALIBRATION_BUCKETS: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.9],
  [0.9, 1.0001],
];

/** Equal-width confidence bins of the expected calibration error. */
export const ECE_BINS = 10;

/**
 * Expected calibration error of (confidence, right) pairs over {@link ECE_BINS} equal-width bins.
 *
 * @example
 * expectedCalibrationError([{ confidence: 0.9, correct: true }, { confidence: 0.9, correct: false }]); // 0.4
 */
export function expectedCalibrationError(
  predictions: ReadonlyArray<{ confidence: number; correct: boolean }>,
): number {
  if (predictions.length === 0) return 0;
  const bins = Array.from({ length: ECE_BINS }, () => ({ count: 0, confidence: 0, right: 0 }));
  for (const { confidence, correct } of predictions) {
    const bin = bins[Math.min(ECE_BINS - 1, Math.floor(confidence * ECE_BINS))];
    if (!bin) continue;
    bin.count += 1;
    bin.confidence += confidence;
    if (correct) bin.right += 1;
  }
  return bins.reduce(
    (sum, bin) =>
      bin.count === 0
        ? sum
        : sum +
          (bin.count / predictions.length) *
            Math.abs(bin.right / bin.count - bin.confidence / bin.count),
    0,
  );
}

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
  /**
   * Expected calibration error: the case-weighted mean gap between confidence and accuracy over
   * {@link ECE_BINS} equal-width confidence bins (0 is perfectly calibrated).
   */
  ece: number;
  /** Accuracy per case kind, when the cases name one. */
  kinds: Record<string, { count: number; accuracy: number }>;
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
  // Bounded, as the other eval sets are: `cohort eval routing /dev/zero` read without end.
  return parseRoutingCases(readCasesFile(file, 'routing set'), file);
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

  const kinds: Record<string, { count: number; right: number }> = {};
  for (const { entry, result } of results) {
    if (!entry.kind) continue;
    const kind = (kinds[entry.kind] ??= { count: 0, right: 0 });
    kind.count += 1;
    if (result.primaryAgent === entry.agent) kind.right += 1;
  }

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
    ece: expectedCalibrationError(
      results.map(({ entry, result }) => ({
        confidence: result.confidence,
        correct: result.primaryAgent === entry.agent,
      })),
    ),
    kinds: Object.fromEntries(
      Object.entries(kinds).map(([name, { count, right }]) => [
        name,
        { count, accuracy: ratio(right, count) },
      ]),
    ),
    phases: Object.fromEntries(
      Object.entries(phases).map(([name, { count, right }]) => [
        name,
        { count, accuracy: ratio(right, count) },
      ]),
    ),
    misses,
  };
}
