import * as z from 'zod';
import { lazySchema } from '../schema/lazy-schema.js';

/** What a subagent hands back to its parent: the only thing that enters the parent's context. */
export const SubagentReport = lazySchema(() =>
  z.object({
    summary: z.string(),
    findings: z.array(z.string()).default([]),
    sources: z.array(z.string()).default([]),
    files: z.array(z.string()).default([]),
  }),
);
export type SubagentReport = z.infer<typeof SubagentReport>;

/** Appended to every subagent's system prompt so its last message is a parseable report. */
export const REPORT_INSTRUCTIONS = `When you are done, reply with only a JSON object (no other text):
{"summary": "<the answer to the task in a few sentences>", "findings": ["<one fact per item, with file:line where it applies>"], "sources": ["<URLs you relied on>"], "files": ["<workspace paths that matter>"]}
Keep it short: the main agent sees only this report, never your tool calls or the files you read.`;

/**
 * Estimates the tokens of `text` for budgets and caps: about four characters per token for
 * English and code, never less than the number of words.
 *
 * @example
 * estimateTokens('hello world'); // 3
 */
export function estimateTokens(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(Math.ceil(text.length / 4), words);
}

const asStrings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).filter(Boolean)
    : typeof value === 'string' && value
      ? [value]
      : [];

/** JSON objects found in `text`: fenced blocks first, then the outermost braces. */
function candidates(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g))
    if (match[1]) out.push(match[1]);
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first !== -1 && last > first) out.push(text.slice(first, last + 1));
  return out;
}

/**
 * Reads a subagent's final message leniently: a JSON report (bare, fenced, or surrounded by
 * prose; `summary` may be spelled `answer`/`result`, lists may be single strings) or, failing
 * that, the whole text as the summary.
 *
 * @example
 * parseSubagentReport('Done.\n```json\n{"summary":"found it","files":"src/a.ts"}\n```').files; // ['src/a.ts']
 */
export function parseSubagentReport(text: string): SubagentReport {
  for (const candidate of candidates(text)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    const summary = record.summary ?? record.answer ?? record.result;
    if (typeof summary !== 'string') continue;
    return {
      summary,
      findings: asStrings(record.findings),
      sources: asStrings(record.sources),
      files: asStrings(record.files),
    };
  }
  return { summary: text.trim(), findings: [], sources: [], files: [] };
}

/**
 * Cuts `value` (a report plus any status fields) until its JSON fits in `maxTokens`: the summary
 * is shortened first (to no less than a quarter of the budget), then list items are dropped from
 * the end. Returns whether anything was cut.
 *
 * @example
 * capReport({ summary: longText, findings: [], sources: [], files: [] }, 2000).value.summary.length; // ≤ ~8000
 */
export function capReport<T extends SubagentReport>(
  value: T,
  maxTokens: number,
): { value: T; truncated: boolean } {
  const size = (candidate: T) => estimateTokens(JSON.stringify(candidate));
  if (size(value) <= maxTokens) return { value, truncated: false };
  const out: T = {
    ...value,
    findings: [...value.findings],
    sources: [...value.sources],
    files: [...value.files],
  };
  const marker = ' … [cut to fit the summary budget]';
  const floor = Math.max(200, maxTokens); // characters the summary keeps at least (≈ a quarter of the budget in tokens)
  const excess = (size(out) - maxTokens) * 4;
  if (excess > 0 && out.summary.length > floor) {
    const keep = Math.max(floor, out.summary.length - excess - marker.length);
    out.summary = out.summary.slice(0, keep) + marker;
  }
  const lists = ['findings', 'files', 'sources'] as const;
  while (size(out) > maxTokens && lists.some((key) => out[key].length > 0)) {
    const longest = lists.reduce((a, b) => (out[a].length >= out[b].length ? a : b));
    out[longest].pop();
  }
  if (size(out) > maxTokens) {
    // Only the summary is left and it is still too long: cut it to the budget outright.
    const room = Math.max(
      0,
      maxTokens * 4 - (JSON.stringify({ ...out, summary: '' }).length + marker.length),
    );
    out.summary = out.summary.slice(0, room) + marker;
  }
  return { value: out, truncated: true };
}
