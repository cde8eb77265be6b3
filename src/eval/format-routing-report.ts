import { ECE_BINS, type RoutingEvaluation } from '../routing/index.js';
import { alignTable, percent } from './text-table.js';

/**
 * Renders a routing evaluation as aligned text: accuracy, per-agent table, confusion matrix,
 * calibration by confidence bucket, phases and misses (only counted with `hideMisses`).
 *
 * @example
 * process.stdout.write(formatRoutingReport(evaluateRouting(router, cases)) + '\n');
 */
export function formatRoutingReport(
  result: RoutingEvaluation,
  options: { hideMisses?: boolean } = {},
): string {
  const { labels, matrix } = result.confusion;
  const lines = [
    `Routing accuracy: ${percent(result.accuracy)} (${result.correct}/${result.total})`,
    `Secondary agents: exact ${percent(result.secondary.exact)}, precision ${percent(result.secondary.precision)}, recall ${percent(result.secondary.recall)}`,
    '',
    'Per agent:',
    ...alignTable([
      ['agent', 'precision', 'recall', 'f1', 'support'],
      ...labels.map((label) => {
        const score = result.perAgent[label];
        return [
          label,
          percent(score?.precision ?? 0),
          percent(score?.recall ?? 0),
          percent(score?.f1 ?? 0),
          String(score?.support ?? 0),
        ];
      }),
    ]).map((line) => `  ${line}`),
    '',
    'Confusion matrix (rows: expected, columns: routed):',
    ...alignTable([
      ['', ...labels],
      ...labels.map((label, i) => [label, ...(matrix[i] ?? []).map(String)]),
    ]).map((line) => `  ${line}`),
    '',
    'Calibration (confidence bucket: cases, mean confidence, accuracy):',
    ...alignTable([
      ['bucket', 'cases', 'confidence', 'accuracy'],
      ...result.calibration.map((bucket) => [
        `${bucket.lower.toFixed(1)}-${bucket.upper.toFixed(1)}`,
        String(bucket.count),
        bucket.count ? percent(bucket.meanConfidence) : '-',
        bucket.count ? percent(bucket.accuracy) : '-',
      ]),
    ]).map((line) => `  ${line}`),
    `  expected calibration error (${ECE_BINS} bins): ${result.ece.toFixed(3)}`,
    '',
    ...(Object.keys(result.kinds).length > 0
      ? [
          `Kinds: ${Object.entries(result.kinds)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([kind, { count, accuracy }]) => `${kind} ${percent(accuracy)} (${count})`)
            .join(', ')}`,
        ]
      : []),
    `Phases: ${Object.entries(result.phases)
      .map(([phase, { count, accuracy }]) => `${phase} ${count} (${percent(accuracy)} right)`)
      .join(', ')}`,
  ];
  if (result.misses.length > 0 && options.hideMisses) {
    // A held-out half's misses, once read, are what the next change gets tuned on.
    lines.push(
      '',
      `Misses (${result.misses.length}): not printed for a held-out half, so nobody tunes on them by accident (--json has them).`,
    );
  } else if (result.misses.length > 0) {
    lines.push('', `Misses (${result.misses.length}):`);
    for (const miss of result.misses) {
      const secondary =
        miss.expectedSecondary.length || miss.routedSecondary.length
          ? ` [secondary expected ${miss.expectedSecondary.join('+') || '-'}, got ${miss.routedSecondary.join('+') || '-'}]`
          : '';
      lines.push(
        `  ${miss.expected} → ${miss.routed}${secondary} (${miss.phase}, ${miss.confidence.toFixed(2)}): ${miss.query}`,
        `      ${miss.reason}`,
      );
    }
  }
  return lines.join('\n');
}
