import type { Finding, ReportSource } from '../schema/index.js';
import { sourceKey } from './visited-registry.js';

/** A written report: markdown and the numbered sources it cites. */
export interface WrittenReport {
  report: string;
  sources: ReportSource[];
  /** The findings with their `[n]` markers renumbered to the report's Sources list. */
  findings: Finding[];
}

function sourceLine(source: ReportSource): string {
  const where =
    source.url && source.url !== source.title
      ? ` — ${source.url}${source.section ? ` § ${source.section}` : ''}`
      : '';
  return `[${source.index}] ${source.title || source.identifier}${where} (${source.sourceType})`;
}

/**
 * Writes the research report: one section per task with its finding, each finding's local `[n]`
 * renumbered to one run-wide Sources list (numbered by first citation), and a note when no
 * analysis model was used or a task ended early.
 *
 * @example
 * const { report, sources } = writeReport(question, findings, 'extractive');
 */
export function writeReport(
  question: string,
  findings: readonly Finding[],
  mode: 'model' | 'extractive',
): WrittenReport {
  const sources: ReportSource[] = [];
  const byKey = new Map<string, number>();
  const renumbered = findings.map((finding) => {
    const local = new Map<number, number>();
    for (const citation of finding.citations) {
      const key = sourceKey(citation.identifier);
      let global = byKey.get(key);
      if (global === undefined) {
        global = sources.length + 1;
        byKey.set(key, global);
        sources.push({
          index: global,
          identifier: citation.identifier,
          sourceType: citation.sourceType,
          title: citation.title,
          ...(citation.url ? { url: citation.url } : {}),
          ...(citation.section ? { section: citation.section } : {}),
        });
      }
      local.set(citation.index, global);
    }
    const summary = finding.summary.replace(/\[(\d{1,3})\]/g, (marker, n: string) => {
      const global = local.get(Number(n));
      return global === undefined ? '' : `[${global}]`;
    });
    return {
      ...finding,
      summary: summary.replace(/ +([.,;])/g, '$1').trim(),
      citations: finding.citations.map((citation) => ({
        ...citation,
        index: local.get(citation.index) ?? citation.index,
      })),
    };
  });
  const lines = [`# Research: ${question}`, ''];
  lines.push(
    mode === 'extractive'
      ? '_No analysis model was used: each finding quotes the sentences of its sources that best match the task._'
      : '_Findings written by the analysis model from the cited sources._',
    '',
  );
  renumbered.forEach((finding, i) => {
    lines.push(`## ${i + 1}. ${finding.task}`, '', finding.summary);
    if (finding.status !== 'done')
      lines.push(
        '',
        `_This task ended early (${finding.status}): ${finding.reason ?? 'no reason given'}._`,
      );
    else if (finding.citations.length === 0 && finding.reason)
      lines.push('', `_${finding.reason}._`);
    lines.push('');
  });
  lines.push('## Sources', '');
  if (sources.length === 0) lines.push('_No sources were cited._');
  else lines.push(...sources.map(sourceLine));
  return { report: lines.join('\n').trimEnd() + '\n', sources, findings: renumbered };
}
