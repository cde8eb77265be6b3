import {
  ApiFailure,
  apiKey,
  getJson,
  loadHistory,
  streamChat,
  type WireAgent,
  type WireCitation,
  type WireHealth,
  type WireRoute,
} from './api-client.js';
import { byId, h } from './dom.js';
import { splitSourcesFooter } from '../../citations/sources-footer.js';
import { renderAnswer } from './render-answer.js';
import { mountResearchView } from './research-view.js';
import { tracePanel } from './trace-panel.js';

// The chat page: streams answers from /chat/stream, shows which agent answered and why, and opens
// cited passages. The session id lives in localStorage so a reload keeps the conversation.

const SESSION_STORAGE = 'cohort.sessionId';
const SUGGESTIONS = [
  'What is a ROS 2 topic?',
  'Which GPU does the workstation need?',
  'What are the capstone milestones?',
  'What does Module 3 cover?',
];

const conversation = byId<HTMLElement>('conversation');
const composer = byId<HTMLFormElement>('composer');
const question = byId<HTMLTextAreaElement>('question');
const send = byId<HTMLButtonElement>('send');
const notice = byId<HTMLElement>('notice');
const agentsPanel = byId<HTMLElement>('agents');
const agentsToggle = byId<HTMLButtonElement>('agents-toggle');
const passage = byId<HTMLDialogElement>('passage');
const researchView = byId<HTMLElement>('research');
const chatTab = byId<HTMLButtonElement>('tab-chat');
const researchTab = byId<HTMLButtonElement>('tab-research');

/** Citations of each answer on the page, so `[n]` opens the right passage. */
const citationsOf = new WeakMap<HTMLElement, WireCitation[]>();
let streaming: AbortController | undefined;

function newSessionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; a LAN address over http is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function sessionId(): string {
  let id = localStorage.getItem(SESSION_STORAGE);
  if (!id) {
    id = newSessionId();
    localStorage.setItem(SESSION_STORAGE, id);
  }
  return id;
}

function scrollToEnd() {
  conversation.scrollTop = conversation.scrollHeight;
}

function showEmptyState() {
  conversation.replaceChildren(
    h(
      'div',
      { class: 'empty', id: 'empty' },
      h('h2', {}, 'Ask the Physical AI & Humanoid Robotics book'),
      h(
        'p',
        {},
        'A router sends your question to a specialist agent (glossary, hardware, modules, capstone) which answers from the book with numbered sources.',
      ),
      h(
        'div',
        { class: 'suggestions' },
        ...SUGGESTIONS.map((text) =>
          h('button', { type: 'button', class: 'suggestion', 'data-ask': text }, text),
        ),
      ),
    ),
  );
}

function userBubble(text: string): HTMLElement {
  return h('article', { class: 'message user' }, h('p', {}, text));
}

/** The badge row of an answer: agent, confidence, and the expandable routing reason. */
function routeInfo(route: WireRoute): HTMLElement {
  const also = route.is_multi_domain && route.secondary_agents.length > 0;
  return h(
    'div',
    { class: 'route' },
    h(
      'span',
      { class: 'badge agent-badge', title: 'The agent that answered' },
      route.primary_agent,
    ),
    also && h('span', { class: 'badge secondary' }, `+ ${route.secondary_agents.join(', ')}`),
    h(
      'details',
      { class: 'why' },
      h('summary', {}, `${Math.round(route.confidence * 100)}% confident · why?`),
      h('p', {}, route.reason),
      h('p', { class: 'muted' }, `Decided by: ${route.phase} routing`),
    ),
  );
}

/** An http(s) address to link, or undefined: anything else a server sends is not followed. */
function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function sourcesList(citations: WireCitation[], lines: string[]): HTMLElement | null {
  if (citations.length > 0) {
    return h(
      'section',
      { class: 'sources' },
      h('h3', {}, 'Sources'),
      h(
        'ol',
        {},
        ...citations.map((c) =>
          h(
            'li',
            {},
            h(
              'button',
              { type: 'button', class: 'source', 'data-cite': String(c.index) },
              h('span', { class: 'num' }, `[${c.index}]`),
              ` ${c.title || c.source}`,
              c.section ? h('span', { class: 'muted' }, ` § ${c.section}`) : null,
            ),
            safeUrl(c.url)
              ? h(
                  'a',
                  {
                    href: safeUrl(c.url),
                    target: '_blank',
                    rel: 'noopener noreferrer',
                    class: 'open',
                  },
                  ' open page ↗',
                )
              : null,
          ),
        ),
      ),
    );
  }
  if (lines.length === 0) return null;
  return h(
    'section',
    { class: 'sources' },
    h('h3', {}, 'Sources'),
    h('ul', { class: 'plain' }, ...lines.map((line) => h('li', {}, line))),
  );
}

/** Renders an answer's text and sources into its bubble. */
function fillAnswer(bubble: HTMLElement, text: string, citations: WireCitation[]) {
  citationsOf.set(bubble, citations);
  const { body, sources } = splitSourcesFooter(text);
  const content = bubble.querySelector<HTMLElement>('.content');
  content?.replaceChildren(
    renderAnswer(body, (n) => citations.some((c) => c.index === n)),
    sourcesList(citations, sources) ?? '',
  );
}

function assistantBubble(): HTMLElement {
  return h(
    'article',
    { class: 'message assistant', 'aria-busy': 'true' },
    h('div', { class: 'route-slot' }),
    h('div', { class: 'content' }, h('p', { class: 'typing' }, 'Finding passages…')),
  );
}

function showError(bubble: HTMLElement, error: unknown) {
  bubble.classList.add('error');
  const failure =
    error instanceof ApiFailure
      ? error
      : new ApiFailure(0, 'error', error instanceof Error ? error.message : String(error));
  const content = bubble.querySelector<HTMLElement>('.content');
  const parts: Node[] = [
    h(
      'p',
      { class: 'error-text', role: 'alert' },
      h('strong', {}, 'Could not answer. '),
      failure.message,
    ),
  ];
  if (failure.status === 401) {
    const input = h('input', { type: 'password', placeholder: 'API key', 'aria-label': 'API key' });
    const form = h(
      'form',
      { class: 'key-form' },
      input,
      h('button', { type: 'submit' }, 'Save key'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      apiKey.set(input.value.trim());
      location.reload();
    });
    parts.push(form);
  } else if (failure.code === 'retrieval_unavailable' || failure.status === 0) {
    parts.push(h('p', { class: 'muted' }, 'Try again in a moment.'));
  }
  content?.replaceChildren(...parts);
}

async function ask(text: string) {
  const query = text.trim();
  if (!query || streaming) return;
  document.getElementById('empty')?.remove();
  conversation.append(userBubble(query));
  const bubble = assistantBubble();
  conversation.append(bubble);
  scrollToEnd();
  question.value = '';
  send.disabled = true;
  const controller = new AbortController();
  streaming = controller;
  let answer = '';
  let citations: WireCitation[] = [];
  try {
    await streamChat(
      { query, session_id: sessionId() },
      {
        route: (route) => bubble.querySelector('.route-slot')?.replaceChildren(routeInfo(route)),
        delta: (delta) => {
          answer += delta;
          fillAnswer(bubble, answer, citations);
          scrollToEnd();
        },
        citations: (list) => {
          citations = list;
          fillAnswer(bubble, answer, citations);
        },
        done: (response) => {
          fillAnswer(bubble, response.answer, response.citations);
          bubble.append(tracePanel(response.query_id));
        },
      },
      controller.signal,
    );
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'AbortError')) showError(bubble, error);
  } finally {
    bubble.removeAttribute('aria-busy');
    streaming = undefined;
    send.disabled = false;
    question.focus();
    scrollToEnd();
  }
}

function openPassage(bubble: HTMLElement, n: number) {
  const citation = citationsOf.get(bubble)?.find((c) => c.index === n);
  if (!citation) return;
  byId('passage-title').textContent = `[${citation.index}] ${citation.title || citation.source}`;
  const where = [
    citation.source,
    citation.section ? `§ ${citation.section}` : '',
    `relevance ${citation.relevance_score.toFixed(2)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const url = safeUrl(citation.url);
  byId('passage-where').replaceChildren(
    where,
    url ? ' · ' : '',
    url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'open page ↗') : '',
  );
  byId('passage-text').textContent = citation.text ?? 'The passage text was not sent.';
  passage.showModal();
}

async function loadSession() {
  const history = await loadHistory(sessionId());
  if (history.length === 0) return showEmptyState();
  conversation.replaceChildren();
  for (const message of history) {
    if (message.role === 'user') {
      conversation.append(userBubble(message.content));
      continue;
    }
    const bubble = assistantBubble();
    bubble.removeAttribute('aria-busy');
    if (message.agent_name) {
      bubble
        .querySelector('.route-slot')
        ?.replaceChildren(
          h(
            'div',
            { class: 'route' },
            h('span', { class: 'badge agent-badge' }, message.agent_name),
          ),
        );
    }
    fillAnswer(bubble, message.content, []);
    conversation.append(bubble);
  }
  scrollToEnd();
}

async function loadAgents() {
  const { agents } = await getJson<{ agents: WireAgent[] }>('/agents');
  byId('agent-list').replaceChildren(
    ...agents.map((agent) =>
      h(
        'li',
        { class: 'agent' },
        h('h3', {}, agent.name, h('span', { class: 'domain' }, agent.domain)),
        h('p', {}, agent.description),
        h(
          'p',
          { class: 'keywords' },
          ...agent.keywords.map((k) => h('span', { class: 'chip' }, k)),
        ),
      ),
    ),
  );
}

async function loadHealth() {
  const health = await getJson<WireHealth>('/healthz');
  if (health.mode === 'extractive') {
    notice.hidden = false;
    notice.textContent =
      'Extractive mode: no language model is configured, so answers quote the book directly. Every sentence still cites its source.';
  }
}

function pageError(error: unknown) {
  const bubble = assistantBubble();
  bubble.removeAttribute('aria-busy');
  showError(bubble, error);
  conversation.replaceChildren(bubble);
}

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  void ask(question.value);
});
question.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    composer.requestSubmit();
  }
});
conversation.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const suggestion = target?.closest<HTMLElement>('[data-ask]');
  if (suggestion?.dataset.ask) return void ask(suggestion.dataset.ask);
  const cite = target?.closest<HTMLElement>('[data-cite]');
  const bubble = cite?.closest<HTMLElement>('.message');
  if (cite && bubble) openPassage(bubble, Number(cite.dataset.cite));
});
agentsToggle.addEventListener('click', () => {
  const open = agentsPanel.hidden;
  agentsPanel.hidden = !open;
  agentsToggle.setAttribute('aria-expanded', String(open));
});
byId('agents-close').addEventListener('click', () => agentsToggle.click());
byId('new-chat').addEventListener('click', () => {
  streaming?.abort();
  showView('chat');
  localStorage.setItem(SESSION_STORAGE, newSessionId());
  showEmptyState();
  question.focus();
});
passage.addEventListener('click', (event) => {
  // A click on the backdrop (the dialog itself, outside its content) closes it.
  if (event.target === passage) passage.close();
});

/** Shows the chat or the research view; `#research` in the address keeps the choice on reload. */
function showView(view: 'chat' | 'research') {
  const research = view === 'research';
  conversation.hidden = research;
  composer.hidden = research;
  researchView.hidden = !research;
  chatTab.setAttribute('aria-selected', String(!research));
  researchTab.setAttribute('aria-selected', String(research));
  history.replaceState(null, '', research ? '#research' : location.pathname + location.search);
  (research ? byId('research-question') : question).focus();
}
chatTab.addEventListener('click', () => showView('chat'));
researchTab.addEventListener('click', () => showView('research'));
mountResearchView();
if (location.hash === '#research') showView('research');

void loadHealth().catch(() => undefined);
void loadAgents().catch(() => undefined);
loadSession().catch(pageError);
