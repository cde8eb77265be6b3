import { GEN_AI, type TraceSpan } from '../telemetry/index.js';
import type { ResearchEvent } from './research-events.js';

/**
 * Turns a research run's events into spans under the run's root: one `research.task` span per
 * subagent (they overlap when tasks run in parallel) and one span per graph node inside it, with
 * what each node reported (sources, the gate's choice, tokens, why a result is empty).
 *
 * @example
 * const spans = researchSpans(root);
 * runResearch(question, { ...deps, onEvent: (event) => spans.observe(event) });
 */
export function researchSpans(root: TraceSpan): { observe(event: ResearchEvent): void } {
  const tasks = new Map<string, TraceSpan>();
  const nodes = new Map<string, TraceSpan>();
  return {
    observe(event) {
      if (event.type === 'task_started') {
        tasks.set(
          event.taskId,
          root.child(`research.task ${event.taskId}`, {
            'cohort.research.task_id': event.taskId,
            'cohort.research.task': event.task,
          }),
        );
      }
      if (event.type === 'node') {
        const key = `${event.taskId}/${event.node}`;
        if (event.status === 'started') {
          const parent = tasks.get(event.taskId) ?? root;
          nodes.set(
            key,
            parent.child(`research.node ${event.node}`, { 'cohort.research.node': event.node }),
          );
          return;
        }
        const span = nodes.get(key);
        nodes.delete(key);
        span?.end({
          ...(event.sources !== undefined ? { 'cohort.research.sources': event.sources } : {}),
          ...(event.next ? { 'cohort.research.next': event.next } : {}),
          ...(event.reason ? { 'cohort.research.reason': event.reason } : {}),
          ...(event.tokens
            ? { [GEN_AI.usageInput]: event.tokens.input, [GEN_AI.usageOutput]: event.tokens.output }
            : {}),
        });
      }
      if (event.type === 'task_finished') {
        const span = tasks.get(event.taskId);
        tasks.delete(event.taskId);
        if (event.status === 'failed') span?.fail(event.finding.reason ?? 'the subagent failed');
        span?.end({
          'cohort.research.status': event.status,
          'cohort.research.sources': event.sources,
          // The subagent's budget use: tokens spent, as its event reports them.
          [GEN_AI.usageInput]: event.tokens.input,
          [GEN_AI.usageOutput]: event.tokens.output,
        });
      }
    },
  };
}
