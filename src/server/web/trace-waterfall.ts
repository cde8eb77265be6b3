import type { WireTrace, WireTraceSpan } from './api-client.js';

/** One row of the waterfall: a span, how deep it nests, and where its bar sits (percent). */
export interface WaterfallRow {
  span: WireTraceSpan;
  depth: number;
  /** Where the bar starts, as a percentage of the trace's duration. */
  offset: number;
  /** How wide the bar is, as a percentage (at least {@link MIN_BAR_PERCENT}, so it shows). */
  width: number;
  /** Short facts a reader looks for on this span: tokens, hits, the routing decision. */
  notes: string[];
  /** What the span is, for its colour: a model call, a tool call, retrieval, routing or other. */
  kind: SpanKind;
}

/** The kinds of span the waterfall colours apart. */
export type SpanKind = 'model' | 'tool' | 'retrieval' | 'routing' | 'agent' | 'step';

/** The kind of a span, from its GenAI operation or cohort's span names. */
export function spanKind(span: Pick<WireTraceSpan, 'name' | 'attributes'>): SpanKind {
  const operation = span.attributes['gen_ai.operation.name'];
  if (operation === 'chat' || operation === 'text_completion') return 'model';
  if (operation === 'execute_tool' || span.name.startsWith('mcp ')) return 'tool';
  if (operation === 'invoke_agent' || span.name.startsWith('research.task')) return 'agent';
  if (span.name === 'cohort.retrieval' || span.name === 'research.node retrieveNode')
    return 'retrieval';
  if (span.name === 'cohort.routing') return 'routing';
  return 'step';
}

/** A sub-millisecond span still gets a visible sliver of a bar. */
export const MIN_BAR_PERCENT = 0.4;

type Attributes = WireTraceSpan['attributes'];

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
const count = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The facts worth a glance, by the attributes cohort's spans carry (see docs/tracing.md). */
export function spanNotes(attributes: Attributes): string[] {
  const notes: string[] = [];
  const task = text(attributes['cohort.research.task']);
  if (task) notes.push(task);
  const agent = text(attributes['cohort.routing.agent']);
  if (agent) {
    const confidence = count(attributes['cohort.routing.confidence']);
    const phase = text(attributes['cohort.routing.phase']);
    notes.push(
      `→ ${agent}${phase ? ` (${phase}` : ''}${confidence === undefined ? '' : `, ${Math.round(confidence * 100)}%`}${phase ? ')' : ''}`,
    );
  }
  const model = text(attributes['gen_ai.request.model']);
  if (model) notes.push(model);
  const input = count(attributes['gen_ai.usage.input_tokens']);
  const output = count(attributes['gen_ai.usage.output_tokens']);
  // Zero tokens is noise on a span that made no model call (an extractive research node).
  if ((input ?? 0) + (output ?? 0) > 0) notes.push(`${input ?? 0} in / ${output ?? 0} out tokens`);
  const tool = text(attributes['gen_ai.tool.name']);
  if (tool) notes.push(`tool ${tool}`);
  const domain = text(attributes['cohort.retrieval.domain']);
  if (domain) notes.push(`domain ${domain}`);
  const hits = count(attributes['cohort.retrieval.hits']);
  if (hits !== undefined) notes.push(`${hits} hit${hits === 1 ? '' : 's'}`);
  const sources = count(attributes['cohort.research.sources']);
  if (sources !== undefined) notes.push(`${sources} source${sources === 1 ? '' : 's'}`);
  const budget = count(attributes['cohort.subagent.budget_used']);
  if (budget !== undefined) notes.push(`budget ${Math.round(budget * 100)}%`);
  return notes;
}

/**
 * Lays a trace's spans out as waterfall rows: depth-first from the roots (a span whose parent is
 * not in the trace counts as a root), siblings in start order, each bar placed on the trace's
 * time line.
 *
 * @example
 * for (const row of waterfallRows(trace)) draw(row.span.name, row.depth, row.offset, row.width);
 */
export function waterfallRows(trace: Pick<WireTrace, 'spans'>): WaterfallRow[] {
  const spans = trace.spans;
  if (spans.length === 0) return [];
  const start = Math.min(...spans.map((span) => span.start_ms));
  const end = Math.max(...spans.map((span) => span.start_ms + span.duration_ms));
  const total = Math.max(end - start, 0.001);
  const ids = new Set(spans.map((span) => span.span_id));
  const children = new Map<string | null, WireTraceSpan[]>();
  for (const span of spans) {
    const parent = span.parent_id !== null && ids.has(span.parent_id) ? span.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: WaterfallRow[] = [];
  // Each span has one parent, so a walk down from the roots cannot loop (spans caught in a parent
  // cycle by corrupt data are unreachable and left out).
  const visit = (parent: string | null, depth: number) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => a.start_ms - b.start_ms);
    for (const span of list) {
      const offset = ((span.start_ms - start) / total) * 100;
      const width = Math.max((span.duration_ms / total) * 100, MIN_BAR_PERCENT);
      rows.push({
        span,
        depth,
        offset: Math.min(offset, 100 - MIN_BAR_PERCENT),
        width: Math.min(width, 100 - Math.min(offset, 100 - MIN_BAR_PERCENT)),
        notes: spanNotes(span.attributes),
        kind: spanKind(span),
      });
      visit(span.span_id, depth + 1);
    }
  };
  visit(null, 0);
  return rows;
}

/** A duration as a reader wants it: `0.42 ms`, `37 ms`, `2.4 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
