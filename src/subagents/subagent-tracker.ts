import { addUsage, emptyUsage } from '../agents/loop/index.js';
import type { TokenUsage } from '../schema/index.js';
import type { SubagentEvent, SubagentResult, SubagentStatus } from './subagent-events.js';

/** One spawned subagent as the live view shows it. */
export interface SubagentRecord {
  id: string;
  parentId?: string;
  type: string;
  model: string;
  prompt: string;
  depth: number;
  status: SubagentStatus;
  startedAt: number;
  endedAt?: number;
  turns: number;
  tokens: number;
  /** The tool it called last, while running. */
  lastTool?: string;
  result?: SubagentResult;
}

/** Collects subagent events into records and rolls their usage up to the parent. */
export interface SubagentTracker {
  handle(event: SubagentEvent): void;
  /** Every subagent seen, in start order. */
  records(): SubagentRecord[];
  /** Finished results, in end order. */
  results(): SubagentResult[];
  /** Token usage of every finished subagent, nested ones included. */
  usage(): TokenUsage;
}

/**
 * Creates a tracker; pass `tracker.handle` as the `onEvent` of a subagent environment.
 *
 * @example
 * const tracker = createSubagentTracker();
 * await runCodingAgent({ ..., onEvent: (event) => isSubagentEvent(event) && tracker.handle(event) });
 * tracker.usage().totalTokens;
 */
export function createSubagentTracker(): SubagentTracker {
  const records = new Map<string, SubagentRecord>();
  const results: SubagentResult[] = [];
  return {
    handle(event) {
      if (event.type === 'subagent-start') {
        records.set(event.id, {
          id: event.id,
          ...(event.parentId ? { parentId: event.parentId } : {}),
          type: event.agentType,
          model: event.model,
          prompt: event.prompt,
          depth: event.depth,
          status: 'running',
          startedAt: event.at,
          turns: 0,
          tokens: 0,
        });
        return;
      }
      const record = records.get(event.id);
      if (!record) return;
      if (event.type === 'subagent-progress') {
        record.turns = event.turns;
        record.tokens = event.tokens;
        if (event.tool) record.lastTool = event.tool;
        return;
      }
      record.status = event.result.status;
      record.endedAt = event.at;
      record.turns = event.result.turns;
      record.tokens = event.result.usage.totalTokens;
      record.result = event.result;
      results.push(event.result);
    },
    records: () => [...records.values()],
    results: () => [...results],
    usage() {
      const total = emptyUsage();
      for (const result of results) addUsage(total, result.usage);
      return total;
    },
  };
}

/** True for the events a subagent spawn emits. */
export function isSubagentEvent(event: { type: string }): event is SubagentEvent {
  return (
    event.type === 'subagent-start' ||
    event.type === 'subagent-progress' ||
    event.type === 'subagent-end'
  );
}
