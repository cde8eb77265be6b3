import type { WireNodeName, WireResearchEvent } from './research-client.js';

/** The steps a card shows, in the subagent's order, with short labels. */
export const STEPS: readonly { node: WireNodeName; label: string }[] = [
  { node: 'retrieveNode', label: 'retrieve' },
  { node: 'routeSourceNecessity', label: 'gate' },
  { node: 'webSearchNode', label: 'web search' },
  { node: 'analysisNode', label: 'analysis' },
];

/** Where a step of one subagent is. */
export type StepState = 'pending' | 'running' | 'done' | 'skipped';

/** How a subagent's task stands; `earlier` was finished by an earlier attempt (resume). */
export type CardStatus = 'queued' | 'running' | 'done' | 'timeout' | 'failed' | 'earlier';

/** What one subagent's card shows. */
export interface ResearchCard {
  taskId: string;
  task: string;
  status: CardStatus;
  steps: Record<WireNodeName, StepState>;
  /** The node running now, or the last one that ran. */
  node?: WireNodeName;
  sources: number;
  tokens: number;
  /** Page clock (ms) when the task started, for the running time. */
  startedAt?: number;
  /** The task's time as the server measured it, once finished. */
  durationMs?: number;
  /** Why a step came back empty or the task ended early. */
  reason?: string;
}

const pendingSteps = (): Record<WireNodeName, StepState> => ({
  retrieveNode: 'pending',
  routeSourceNecessity: 'pending',
  webSearchNode: 'pending',
  analysisNode: 'pending',
});

/**
 * The subagent cards after one stream event: `run_started` lays out one queued card per task,
 * `task_started` and `node` events move a card along its steps (a web search the gate did not
 * choose is skipped), and `task_finished` settles it. Returns a new list; `now` is the page clock.
 *
 * @example
 * cards = applyResearchEvent(cards, event, performance.now());
 */
export function applyResearchEvent(
  cards: readonly ResearchCard[],
  event: WireResearchEvent,
  now: number,
): ResearchCard[] {
  if (event.type === 'run_started') {
    const skipped = new Set(event.skipped_task_ids);
    return event.tasks.map((task) => ({
      taskId: task.id,
      task: task.description,
      status: skipped.has(task.id) ? 'earlier' : 'queued',
      steps: pendingSteps(),
      sources: 0,
      tokens: 0,
    }));
  }
  if (event.type === 'done') return [...cards];
  return cards.map((card) => {
    if (card.taskId !== event.task_id) return card;
    const next: ResearchCard = { ...card, steps: { ...card.steps } };
    if (event.type === 'task_started') {
      next.status = 'running';
      next.task = event.task;
      next.startedAt = now;
    } else if (event.type === 'node') {
      next.node = event.node;
      next.steps[event.node] = event.status === 'started' ? 'running' : 'done';
      if (event.status === 'finished') next.sources += event.sources ?? 0;
      if (event.tokens) next.tokens = event.tokens.total;
      if (event.reason) next.reason = event.reason;
      if (event.node === 'routeSourceNecessity' && event.next === 'analysisNode')
        next.steps.webSearchNode = 'skipped';
    } else {
      next.status = event.status;
      next.sources = event.sources;
      next.tokens = event.tokens.total;
      next.durationMs = event.duration_ms;
      // The finding's reason is the final word; a step's passing reason no longer applies.
      next.reason = event.finding.reason;
      for (const step of STEPS)
        if (next.steps[step.node] === 'running') next.steps[step.node] = 'done';
    }
    return next;
  });
}
