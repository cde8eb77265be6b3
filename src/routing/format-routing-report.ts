import { ECE_BINS, type RoutingEvaluation } from './evaluate-routing.js';

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

function table(rows: string[][]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}

/**
 * Renders a routing evaluation as aligned text: accuracy, per-agent table, confusion matrix,
 * calibration by confidence bucket, phases and misses.
 *
 * @example
 * process.stdout.write(formatRoutingReport(evaluateRouting(router, cases)) + '\n');
 */
export function formatRoutingReport(result: RoutingEvaluation): string {
  const { labels, matrix } = result.confusion;
  const lines = [
    `Routing accuracy: ${pct(result.accuracy)} (${result.correct}/${result.total})`,
    `Secondary agents: exact ${pct(result.secondary.exact)}, precision ${pct(result.secondary.precision)}, recall ${pct(result.secondary.recall)}`,
    '',
    'Per agent:',
    ...table([
      ['agent', 'precision', 'recall', 'f1', 'support'],
      ...labels.map((label) => {
        const score = result.perAgent[label];
        return [
          label,
          pct(score?.precision ?? 0),
          pct(score?.recall ?? 0),
          pct(score?.f1 ?? 0),
          String(score?.support ?? 0),
        ];
      }),
    ]).map((line) => `  ${line}`),
    '',
    'Confusion matrix (rows: expected, columns: routed):',
    ...table([
      ['', ...labels],
      ...labels.map((label, i) => [label, ...(matrix[i] ?? []).map(String)]),
    ]).map((line) => `  ${line}`),
    '',
    'Calibration (confidence bucket: cases, mean confidence, accuracy):',
    ...table([
      ['bucket', 'cases', 'confidence', 'accuracy'],
      ...result.calibration.map((bucket) => [
        `${bucket.lower.toFixed(1)}-${bucket.upper.toFixed(1)}`,
        String(bucket.count),
        bucket.count ? pct(bucket.meanConfidence) : '-',
        bucket.count ? pct(bucket.accuracy) : '-',
      ]),
    ]).map((line) => `  ${line}`),
    `  expected calibration error (${ECE_BINS} bins): ${result.ece.toFixed(3)}`,
    '',
    ...(Object.keys(result.kinds).length > 0
      ? [
          `Kinds: ${Object.entries(result.kinds)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([kind, { count, accuracy }]) => `${kind} ${pct(accuracy)} (${count})`)
            .join(', ')}`,
        ]
      : []),
    `Phases: ${Object.entries(result.phases)
      .map(([phase, { count, accuracy }]) => `${phase} ${count} (${pct(accuracy)} right)`)
      .join(', ')}`,
  ];
  if (result.misses.length > 0) {
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
