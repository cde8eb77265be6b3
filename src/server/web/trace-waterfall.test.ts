import { describe, expect, it } from 'vitest';
import type { WireTraceSpan } from './api-client.js';
import {
  formatDuration,
  MIN_BAR_PERCENT,
  spanKind,
  spanNotes,
  waterfallRows,
} from './trace-waterfall.js';

const span = (
  id: string,
  parent: string | null,
  start: number,
  duration: number,
  attributes: WireTraceSpan['attributes'] = {},
): WireTraceSpan => ({
  span_id: id,
  parent_id: parent,
  name: `span ${id}`,
  start_ms: start,
  duration_ms: duration,
  status: 'ok',
  attributes,
});

describe('waterfallRows', () => {
  it('lists spans depth first, siblings by start, with bars on the trace time line', () => {
    // Stored in start order, as the store returns them; b starts before a but is a's sibling.
    const rows = waterfallRows({
      spans: [
        span('root', null, 1000, 100),
        span('b', 'root', 1010, 40),
        span('b1', 'b', 1020, 10),
        span('a', 'root', 1060, 40),
      ],
    });
    expect(rows.map((row) => [row.span.span_id, row.depth])).toEqual([
      ['root', 0],
      ['b', 1],
      ['b1', 2],
      ['a', 1],
    ]);
    expect(rows[0]).toMatchObject({ offset: 0, width: 100 });
    expect(rows[1]).toMatchObject({ offset: 10, width: 40 });
    expect(rows[3]).toMatchObject({ offset: 60, width: 40 });
  });

  it('keeps an instant span visible and inside the track', () => {
    const rows = waterfallRows({ spans: [span('root', null, 0, 100), span('x', 'root', 100, 0)] });
    expect(rows[1]?.width).toBeGreaterThanOrEqual(MIN_BAR_PERCENT);
    expect((rows[1]?.offset ?? 0) + (rows[1]?.width ?? 0)).toBeLessThanOrEqual(100);
  });

  it('shows a span whose parent is missing as a root, and leaves a parent cycle out', () => {
    const rows = waterfallRows({
      spans: [
        span('orphan', 'gone', 0, 5),
        span('loop1', 'loop2', 1, 1),
        span('loop2', 'loop1', 2, 1),
      ],
    });
    expect(rows.map((row) => row.span.span_id)).toEqual(['orphan']);
  });

  it('draws nothing for no spans', () => {
    expect(waterfallRows({ spans: [] })).toEqual([]);
  });
});

describe('spanNotes', () => {
  it('names the routing decision, the model and its tokens, the tool and the retrieval hits', () => {
    expect(
      spanNotes({
        'cohort.routing.agent': 'glossary',
        'cohort.routing.phase': 'keyword',
        'cohort.routing.confidence': 0.87,
      }),
    ).toEqual(['→ glossary (keyword, 87%)']);
    expect(
      spanNotes({
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.usage.input_tokens': 90,
        'gen_ai.usage.output_tokens': 12,
      }),
    ).toEqual(['gpt-4o-mini', '90 in / 12 out tokens']);
    expect(
      spanNotes({
        'gen_ai.tool.name': 'search_book_content',
        'cohort.retrieval.domain': 'hardware',
        'cohort.retrieval.hits': 1,
      }),
    ).toEqual(['tool search_book_content', 'domain hardware', '1 hit']);
    expect(spanNotes({ 'cohort.subagent.budget_used': 0.25 })).toEqual(['budget 25%']);
  });
});

describe('formatDuration', () => {
  it('reads as ms under a second and as seconds above', () => {
    expect(formatDuration(0.421)).toBe('0.42 ms');
    expect(formatDuration(37.4)).toBe('37 ms');
    expect(formatDuration(2400)).toBe('2.4 s');
  });
});

describe('spanKind', () => {
  it('tells model, tool, retrieval, routing and agent spans apart', () => {
    const kind = (name: string, operation?: string) =>
      spanKind({ name, attributes: operation ? { 'gen_ai.operation.name': operation } : {} });
    expect(kind('chat gpt-4o', 'chat')).toBe('model');
    expect(kind('execute_tool search_book_content', 'execute_tool')).toBe('tool');
    expect(kind('mcp tools/call echo')).toBe('tool');
    expect(kind('cohort.retrieval')).toBe('retrieval');
    expect(kind('cohort.routing')).toBe('routing');
    expect(kind('invoke_agent glossary', 'invoke_agent')).toBe('agent');
    expect(kind('research.task task-1')).toBe('agent');
    expect(kind('research.plan')).toBe('step');
  });
});
