import { describe, expect, it } from 'vitest';
import type { RouteResult } from '../schema/index.js';
import { evaluateRouting, loadRoutingCases, parseRoutingCases } from './evaluate-routing.js';
import { formatRoutingReport } from '../eval/format-routing-report.js';

const fakeRouter = (answers: Record<string, [string, string[], number]>) => ({
  route(query: string): RouteResult {
    const [primaryAgent, secondaryAgents, confidence] = answers[query] ?? ['book', [], 0.5];
    return {
      primaryAgent,
      secondaryAgents,
      confidence,
      routingReason: 'fake',
      isMultiDomain: secondaryAgents.length > 0,
      phase: 'intent',
      scores: {},
    };
  },
});

describe('parseRoutingCases', () => {
  it('reads JSONL and defaults secondary to []', () => {
    expect(parseRoutingCases('{"query":"hi","agent":"book"}\n\n')).toEqual([
      { query: 'hi', agent: 'book', secondary: [] },
    ]);
  });
  it('names the line and field of a bad case', () => {
    expect(() =>
      parseRoutingCases('{"query":"hi","agent":"book"}\n{"query":"","agent":"x"}', 'dev.jsonl'),
    ).toThrow(/dev\.jsonl:2: query must not be empty/);
    expect(() => parseRoutingCases('{"query":"hi"}', 'dev.jsonl')).toThrow(/dev\.jsonl:1: agent/);
    expect(() => parseRoutingCases('not json', 'dev.jsonl')).toThrow(
      /dev\.jsonl:1: not valid JSON/,
    );
    expect(() => parseRoutingCases('\n', 'dev.jsonl')).toThrow(/no routing cases/);
  });
});

describe('loadRoutingCases', () => {
  it('names a folder, and refuses a file that never ends instead of reading it for ever', () => {
    expect(() => loadRoutingCases('/tmp')).toThrow(
      '/tmp: this routing set is a folder, not a file: name the JSONL file in it.',
    );
    // Before, /dev/zero was read without end (the process grew until it ran out of memory).
    expect(() => loadRoutingCases('/dev/zero')).toThrow(/routing set holds more than 64 MB/);
  });
});

describe('evaluateRouting', () => {
  const cases = parseRoutingCases(
    [
      { query: 'q1', agent: 'glossary', secondary: [] },
      { query: 'q2', agent: 'glossary', secondary: [] },
      { query: 'q3', agent: 'hardware', secondary: ['capstone'] },
      { query: 'q4', agent: 'hardware', secondary: [] },
    ]
      .map((entry) => JSON.stringify(entry))
      .join('\n'),
  );
  const result = evaluateRouting(
    fakeRouter({
      q1: ['glossary', [], 0.95],
      q2: ['hardware', [], 0.6],
      q3: ['hardware', ['capstone'], 0.8],
      q4: ['hardware', ['module_info'], 0.92],
    }),
    cases,
  );

  it('computes accuracy, per-agent scores and the confusion matrix', () => {
    expect(result.accuracy).toBe(0.75);
    expect(result.perAgent.glossary).toEqual({ precision: 1, recall: 0.5, f1: 2 / 3, support: 2 });
    expect(result.perAgent.hardware?.precision).toBeCloseTo(2 / 3);
    expect(result.confusion).toEqual({
      labels: ['glossary', 'hardware'],
      matrix: [
        [1, 1],
        [0, 2],
      ],
    });
  });
  it('scores secondary agents and lists the misses', () => {
    expect(result.secondary).toEqual({ exact: 0.75, precision: 0.5, recall: 1 });
    expect(result.misses.map((miss) => miss.query)).toEqual(['q2', 'q4']);
  });
  it('buckets confidence against accuracy', () => {
    const top = result.calibration.find((bucket) => bucket.lower === 0.9);
    expect(top).toMatchObject({ count: 2, accuracy: 1 });
    expect(top?.meanConfidence).toBeCloseTo(0.935);
  });
  it('formats an aligned report', () => {
    const report = formatRoutingReport(result);
    expect(report).toMatch(/Routing accuracy: 75\.0% \(3\/4\)/);
    const rows = report
      .split('\n')
      .filter((line) => /^ {2}(glossary|hardware) /.test(line) && !line.includes('→'));
    // Per-agent rows and confusion rows: each group's columns line up.
    expect(rows.length).toBe(4);
    expect(rows[0]?.length).toBe(rows[1]?.length);
    expect(report).toMatch(/glossary → hardware/);
  });
  it("counts a held-out half's misses without printing them", () => {
    const report = formatRoutingReport(result, { hideMisses: true });
    expect(report).toMatch(/Misses \(\d+\): not printed for a held-out half/);
    expect(report).not.toMatch(/glossary → hardware/);
  });
});
