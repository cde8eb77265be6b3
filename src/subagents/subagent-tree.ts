import type { SubagentRecord } from './subagent-tracker.js';
import { countOf } from '../telemetry/index.js';

const ICONS: Record<SubagentRecord['status'], string> = {
  running: '…',
  completed: '✓',
  budget_exceeded: '!',
  timeout: '⏱',
  failed: '✗',
  aborted: '✗',
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
const shorten = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** One line about one subagent: type, status, time, turns, tokens and the start of its prompt. */
export function describeSubagent(record: SubagentRecord, now: number): string {
  const elapsed = (record.endedAt ?? now) - record.startedAt;
  const status =
    record.status === 'running' && record.lastTool
      ? `running ${record.lastTool}`
      : record.status.replace('_', ' ');
  return `${ICONS[record.status]} ${record.type} [${record.model}] ${status} · ${seconds(elapsed)} · ${countOf(record.turns, 'turn')} · ${countOf(record.tokens, 'token', { format: true })} · ${shorten(record.prompt, 60)}`;
}

/**
 * The spawned subagents as a tree (children under the subagent that spawned them), one line each.
 *
 * @example
 * renderSubagentTree(tracker.records(), Date.now()).join('\n');
 * // ├─ ✓ explorer [fast] completed · 2.1s · 4 turns · 9,120 tokens · Find where retries are configured
 */
export function renderSubagentTree(records: readonly SubagentRecord[], now: number): string[] {
  const children = new Map<string | undefined, SubagentRecord[]>();
  const ids = new Set(records.map((record) => record.id));
  for (const record of records) {
    const parent = record.parentId && ids.has(record.parentId) ? record.parentId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), record]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, indent: string) => {
    const list = children.get(parent) ?? [];
    list.forEach((record, index) => {
      const last = index === list.length - 1;
      lines.push(`${indent}${last ? '└─' : '├─'} ${describeSubagent(record, now)}`);
      walk(record.id, `${indent}${last ? '   ' : '│  '}`);
    });
  };
  walk(undefined, '');
  return lines;
}
