import { reportBody } from '../../citations/report-sources.js';
import { ApiFailure } from './api-client.js';
import { byId, h } from './dom.js';
import { applyResearchEvent, STEPS, type ResearchCard } from './research-cards.js';
import {
  streamResearch,
  type WireFindingCitation,
  type WireReportSource,
  type WireResearch,
  type WireResearchEvent,
} from './research-client.js';
import { renderAnswer } from './render-answer.js';
import { tracePanel } from './trace-panel.js';

// The research view: runs a question over /research/stream, shows one live card per subagent
// (they run in parallel), then the report with `[n]` citations that open their source.

const STATUS_LABEL: Record<ResearchCard['status'], string> = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  timeout: 'timed out',
  failed: 'failed',
  earlier: 'done earlier',
};

const KIND_LABEL: Record<WireReportSource['source_type'], string> = {
  internal: 'Book passage',
  web: 'Web page',
  paper: 'Paper',
};

/** The report's Sources list, each with a quoted snippet from the findings that cite it. */
function citedSources(result: WireResearch): Map<number, WireFindingCitation> {
  const sources = new Map<number, WireFindingCitation>(
    result.sources.map((s) => [s.index, { ...s }]),
  );
  for (const finding of result.findings) {
    for (const citation of finding.citations) {
      const source = sources.get(citation.index);
      if (source && !source.snippet && citation.snippet) source.snippet = citation.snippet;
    }
  }
  return sources;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function cardElement(card: ResearchCard, now: number): HTMLElement {
  const elapsed =
    card.durationMs ?? (card.startedAt === undefined ? undefined : now - card.startedAt);
  return h(
    'article',
    { class: 'card', 'data-task': card.taskId, 'data-status': card.status },
    h(
      'header',
      {},
      h('span', { class: 'task-id' }, card.taskId),
      h('span', { class: 'status' }, STATUS_LABEL[card.status]),
    ),
    h('p', { class: 'task' }, card.task),
    h(
      'ol',
      { class: 'steps', 'aria-label': 'Steps' },
      ...STEPS.map((step) =>
        h(
          'li',
          {
            class: 'step',
            'data-state': card.steps[step.node],
            'aria-current': card.node === step.node && card.status === 'running' ? 'step' : false,
          },
          step.label,
        ),
      ),
    ),
    h(
      'p',
      { class: 'stats' },
      h(
        'span',
        { class: 'sources-found' },
        `${card.sources} source${card.sources === 1 ? '' : 's'}`,
      ),
      h('span', { class: 'time' }, elapsed === undefined ? '–' : seconds(elapsed)),
      h('span', { class: 'tokens' }, `${card.tokens} tokens`),
    ),
    card.reason ? h('p', { class: 'reason muted' }, card.reason) : null,
  );
}

function reportElement(
  result: WireResearch,
  sources: Map<number, WireFindingCitation>,
): DocumentFragment {
  // The Sources list is drawn as buttons from the result, not from the report's markdown lines.
  const body = reportBody(result.report);
  const fragment = document.createDocumentFragment();
  fragment.append(
    h(
      'div',
      { class: 'content' },
      renderAnswer(body, (n) => sources.has(n)),
    ),
    h(
      'section',
      { class: 'sources' },
      h('h3', {}, 'Sources'),
      sources.size === 0
        ? h('p', { class: 'muted' }, 'No sources were cited.')
        : h(
            'ol',
            {},
            ...[...sources.values()].map((source) =>
              h(
                'li',
                {},
                h(
                  'button',
                  { type: 'button', class: 'source', 'data-cite': String(source.index) },
                  h('span', { class: 'num' }, `[${source.index}]`),
                  ` ${source.title || source.identifier}`,
                  h('span', { class: 'muted' }, ` · ${KIND_LABEL[source.source_type]}`),
                ),
              ),
            ),
          ),
    ),
  );
  return fragment;
}

/** Only web links the page can open safely (never `javascript:` or a book path). */
function webLink(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

/**
 * Wires the research view of the page (`#research` in index.html): the question form, the live
 * subagent cards and the report whose citations open a source dialog.
 *
 * @example
 * mountResearchView();
 */
export function mountResearchView(): void {
  const form = byId<HTMLFormElement>('research-form');
  const question = byId<HTMLTextAreaElement>('research-question');
  const taskCount = byId<HTMLInputElement>('research-tasks');
  const run = byId<HTMLButtonElement>('research-run');
  const status = byId<HTMLElement>('research-status');
  const cardList = byId<HTMLElement>('research-cards');
  const report = byId<HTMLElement>('research-report');
  const dialog = byId<HTMLDialogElement>('source-dialog');

  let cards: ResearchCard[] = [];
  let sources = new Map<number, WireFindingCitation>();
  let running: AbortController | undefined;

  const drawCards = () =>
    cardList.replaceChildren(...cards.map((card) => cardElement(card, performance.now())));

  const say = (text: string, error = false) => {
    status.textContent = text;
    status.classList.toggle('error-text', error);
    status.setAttribute('role', error ? 'alert' : 'status');
  };

  function openSource(n: number) {
    const source = sources.get(n);
    if (!source) return;
    const link = webLink(source.url);
    byId('source-title').textContent = `[${source.index}] ${source.title || source.identifier}`;
    byId('source-where').textContent = [
      KIND_LABEL[source.source_type],
      source.source_type === 'internal' ? (source.url ?? source.identifier) : '',
      source.section ? `§ ${source.section}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const text = byId('source-text');
    text.textContent =
      source.snippet ?? (source.source_type === 'internal' ? 'The passage text was not sent.' : '');
    text.hidden = text.textContent === '';
    const anchor = byId<HTMLAnchorElement>('source-link');
    anchor.hidden = !link;
    if (link) {
      anchor.href = link;
      anchor.textContent = `Open ${link}`;
    } else anchor.removeAttribute('href');
    dialog.showModal();
  }

  async function research() {
    const text = question.value.trim();
    if (!text) return;
    const tasks = Number(taskCount.value);
    const controller = new AbortController();
    running = controller;
    run.textContent = 'Stop';
    cards = [];
    sources = new Map();
    drawCards();
    report.hidden = true;
    report.replaceChildren();
    say('Planning tasks…');
    const tick = setInterval(drawCards, 250);
    const started = performance.now();
    try {
      const result = await streamResearch(
        { question: text, ...(Number.isInteger(tasks) && tasks >= 1 ? { tasks } : {}) },
        (event: WireResearchEvent) => {
          cards = applyResearchEvent(cards, event, performance.now());
          if (event.type === 'run_started')
            say(`${event.tasks.length} subagents researching in parallel · run ${event.run_id}`);
          drawCards();
        },
        controller.signal,
      );
      sources = citedSources(result);
      report.replaceChildren(reportElement(result, sources), tracePanel(result.run_id));
      report.hidden = false;
      say(
        `Done in ${seconds(performance.now() - started)} · ${result.sources.length} sources · ${result.mode} mode · run ${result.run_id}`,
      );
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') say('Stopped.');
      else
        say(
          `Could not research: ${error instanceof ApiFailure || error instanceof Error ? error.message : String(error)}`,
          true,
        );
    } finally {
      clearInterval(tick);
      drawCards();
      running = undefined;
      run.textContent = 'Research';
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running) running.abort();
    else void research();
  });
  question.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  report.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const cite = target?.closest<HTMLElement>('[data-cite]');
    if (cite) openSource(Number(cite.dataset.cite));
  });
  dialog.addEventListener('click', (event) => {
    // A click on the backdrop (the dialog itself, outside its content) closes it.
    if (event.target === dialog) dialog.close();
  });
}
