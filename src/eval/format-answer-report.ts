import type { CorpusAnswerReport } from './evaluate-answers-on-corpus.js';
import type { AnswerFigures } from './evaluate-answers.js';
import { alignTable, percent } from './text-table.js';
import { countOf } from '../telemetry/index.js';
import { unknownGoldLines } from './unknown-gold-lines.js';

const HEADER = ['', 'cases', 'cites gold', 'first gold', 'not in book'];
const row = (name: string, f: AnswerFigures) => [
  name,
  String(f.cases),
  percent(f.citesGold),
  percent(f.firstCitationGold),
  percent(f.notInBook),
];
const indent = (lines: string[]) => lines.map((line) => `  ${line}`);

/**
 * Renders an answer evaluation as aligned text: the figures with the router on and off, per split
 * and per answering agent, then the questions whose answer cites no gold section.
 *
 * @example
 * io.stdout(formatAnswerReport(await evaluateAnswersOnCorpus({ corpusDir, casesFile, config })));
 */
export function formatAnswerReport(report: CorpusAnswerReport): string {
  const { routed, unrouted } = report;
  const splits = Object.keys(routed.perSplit);
  const lines = [
    `Answers, end to end (${routed.mode} mode), ${countOf(routed.cases, 'question')} over ${countOf(report.ingest.chunks, 'chunk')}:`,
    ...indent(
      alignTable([
        HEADER,
        row('router on', routed),
        row('router off', unrouted),
        ...splits.flatMap((split) => [
          row(`${split}, router on`, routed.perSplit[split] as AnswerFigures),
          row(`${split}, router off`, unrouted.perSplit[split] as AnswerFigures),
        ]),
      ]),
    ),
    '',
    'Per answering agent, router on:',
    ...indent(
      alignTable([
        HEADER,
        ...Object.entries(routed.perAgent).map(([agent, figures]) => row(agent, figures)),
      ]),
    ),
  ];
  lines.push(...unknownGoldLines(report.unknownGold));
  const misses = routed.perQuery.filter((result) => !result.citesGold);
  if (misses.length > 0) {
    lines.push('', `No gold section cited, router on (${misses.length}):`);
    for (const miss of misses) {
      const split = miss.split ? ` [${miss.split}]` : '';
      lines.push(
        `  ${miss.agent}${split}: ${miss.query}`,
        `      gold ${miss.gold.join(' | ')}`,
        `      cited ${miss.cited.length ? miss.cited.join(' | ') : 'nothing (not in the book)'}`,
      );
    }
  }
  return lines.join('\n');
}
