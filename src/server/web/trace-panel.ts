import { ApiFailure, loadTrace, type WireTrace } from './api-client.js';
import { h } from './dom.js';
import {
  formatDuration,
  waterfallRows,
  type SpanKind,
  type WaterfallRow,
} from './trace-waterfall.js';

// The "trace" panel of an answer or a research run: a waterfall of the spans the server recorded
// (GET /runs/:id/trace), loaded when the panel is first opened. Bars are placed with CSS custom
// properties set from script, since the page's Content-Security-Policy forbids inline styles.

const ROUTING_PHASE: Record<string, string> = {
  keyword: 'keyword scoring',
  intent: 'the intent classifier',
  fallback: 'the fallback rule',
  explicit: 'the agent the request named',
};

/** The bar colours, named (app.css colours `.span-row[data-kind]` the same way). */
const LEGEND: [SpanKind, string][] = [
  ['agent', 'agent / step'],
  ['routing', 'routing'],
  ['model', 'model call'],
  ['tool', 'tool call'],
  ['retrieval', 'retrieval'],
];

function attributeValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value);
}

function summaryLine(trace: WireTrace): HTMLElement {
  const tokens = trace.input_tokens + trace.output_tokens;
  return h(
    'p',
    { class: 'trace-totals' },
    h('strong', { class: 'trace-total' }, formatDuration(trace.duration_ms)),
    ` · ${trace.spans.length} spans · `,
    h(
      'span',
      { class: 'trace-tokens' },
      tokens > 0
        ? `${trace.input_tokens} in / ${trace.output_tokens} out tokens`
        : 'no model tokens',
    ),
    ` · ${trace.status}`,
  );
}

function routingLine(routing: NonNullable<WireTrace['routing']>): HTMLElement {
  return h(
    'p',
    { class: 'trace-routing' },
    'Routed to ',
    h('strong', {}, routing.agent),
    ` by ${ROUTING_PHASE[routing.phase] ?? `${routing.phase} routing`}, ${Math.round(routing.confidence * 100)}% confident`,
    routing.reason ? h('span', { class: 'muted' }, ` · ${routing.reason}`) : null,
  );
}

function spanRow(row: WaterfallRow): HTMLElement {
  const { span } = row;
  const bar = h('span', { class: 'span-bar' });
  bar.style.setProperty('--offset', `${row.offset}%`);
  bar.style.setProperty('--width', `${row.width}%`);
  const name = h(
    'span',
    { class: 'span-name', title: span.name },
    h('span', { class: 'span-label' }, span.name),
    row.notes.length > 0 ? h('span', { class: 'span-notes' }, row.notes.join(' · ')) : null,
  );
  name.style.setProperty('--depth', String(row.depth));
  const attributes = Object.entries(span.attributes).filter(([, value]) => value !== undefined);
  const item = h(
    'li',
    {
      class: 'span-row',
      'data-status': span.status,
      'data-kind': row.kind,
      'data-name': span.name,
    },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        name,
        h('span', { class: 'span-track', 'aria-hidden': 'true' }, bar),
        h('span', { class: 'span-ms' }, formatDuration(span.duration_ms)),
      ),
      span.error ? h('p', { class: 'error-text' }, span.error) : null,
      attributes.length === 0
        ? h('p', { class: 'muted' }, 'No attributes.')
        : h(
            'dl',
            { class: 'span-attributes' },
            ...attributes.flatMap(([key, value]) => [
              h('dt', {}, key),
              h('dd', {}, attributeValue(value)),
            ]),
          ),
    ),
  );
  return item;
}

/** The waterfall of a loaded trace: totals, the routing decision, one row per span. */
export function traceWaterfall(trace: WireTrace): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(
    summaryLine(trace),
    trace.routing ? routingLine(trace.routing) : '',
    h(
      'p',
      { class: 'trace-legend', 'aria-hidden': 'true' },
      ...LEGEND.map(([kind, label]) => h('span', { 'data-kind': kind }, label)),
    ),
    h(
      'div',
      { class: 'trace-scale', 'aria-hidden': 'true' },
      h('span', {}, '0'),
      h('span', {}, formatDuration(trace.duration_ms / 2)),
      h('span', {}, formatDuration(trace.duration_ms)),
    ),
    h('ol', { class: 'waterfall', 'aria-label': 'Spans' }, ...waterfallRows(trace).map(spanRow)),
  );
  return fragment;
}

/**
 * A collapsed "Trace" panel for the run `runId` (an answer's `query_id`, a research `run_id`);
 * opening it loads the trace once and draws its waterfall, or says why it could not.
 *
 * @example
 * bubble.append(tracePanel(response.query_id));
 */
export function tracePanel(runId: string): HTMLDetailsElement {
  const body = h('div', { class: 'trace-body' }, h('p', { class: 'muted' }, 'Loading the trace…'));
  const panel = h(
    'details',
    { class: 'trace', 'data-run-id': runId },
    h('summary', {}, 'Trace'),
    body,
  );
  let loaded = false;
  panel.addEventListener('toggle', () => {
    if (!panel.open || loaded) return;
    loaded = true;
    loadTrace(runId)
      .then((trace) => {
        body.replaceChildren(traceWaterfall(trace));
        panel.dataset.loaded = 'true';
      })
      .catch((error: unknown) => {
        loaded = false;
        body.replaceChildren(
          h(
            'p',
            { class: 'error-text', role: 'alert' },
            `Could not load the trace: ${error instanceof ApiFailure || error instanceof Error ? error.message : String(error)}`,
          ),
        );
      });
  });
  return panel;
}
