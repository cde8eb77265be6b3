import type { Finding, ReportSource } from '../schema/index.js';
import { numberSources, renumberMarkers, REPORT_SOURCES_HEADING } from '../citations/index.js';
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
  // One run-wide Sources list, numbered by first citation; each finding's markers follow it.
  const { sources: cited, renumber } = numberSources(
    findings.map((finding) => finding.citations),
    (citation) => sourceKey(citation.identifier),
  );
  const sources: ReportSource[] = cited.map((citation) => ({
    index: citation.index,
    identifier: citation.identifier,
    sourceType: citation.sourceType,
    title: citation.title,
    ...(citation.url ? { url: citation.url } : {}),
    ...(citation.section ? { section: citation.section } : {}),
  }));
  const renumbered = findings.map((finding, i) => {
    const local = renumber[i] ?? new Map<number, number>();
    return {
      ...finding,
      summary: renumberMarkers(finding.summary, local)
        .replace(/ +([.,;])/g, '$1')
        .trim(),
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
  // A reason may end with its own full stop ('… Check the network and the base URL.').
  const sentence = (reason: string) => reason.replace(/\.+$/, '') + '.';
  renumbered.forEach((finding, i) => {
    lines.push(`## ${i + 1}. ${finding.task}`, '', finding.summary);
    if (finding.status !== 'done')
      lines.push(
        '',
        `_This task ended early (${finding.status}): ${sentence(finding.reason ?? 'no reason given')}_`,
      );
    else if (finding.citations.length === 0 && finding.reason)
      lines.push('', `_${sentence(finding.reason)}_`);
    lines.push('');
  });
  lines.push(REPORT_SOURCES_HEADING, '');
  if (sources.length === 0) lines.push('_No sources were cited._');
  else lines.push(...sources.map(sourceLine));
  return { report: lines.join('\n').trimEnd() + '\n', sources, findings: renumbered };
}
