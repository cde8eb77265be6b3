import type { ResearchEvent, SubagentNodeName } from '../../research/index.js';
import { countOf } from '../../telemetry/index.js';

/** What the live view shows per subagent. */
interface Row {
  taskId: string;
  task: string;
  status: string;
  sources: number;
  started: number;
  ended?: number;
  tokens: number;
}

const NODE_LABEL: Record<SubagentNodeName, string> = {
  retrieveNode: 'retrieving',
  routeSourceNecessity: 'routing',
  webSearchNode: 'searching web+papers',
  analysisNode: 'analysing',
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/**
 * The live view of `cohort research`: one line per subagent with its status, sources found, time
 * and tokens. On a terminal it redraws in place; otherwise it prints a line as each task starts
 * and finishes, so logs stay readable.
 *
 * @example
 * const view = createResearchView({ write: io.stderr, isTTY: io.isTTY, now: Date.now });
 * await runResearch(question, { ...dependencies, onEvent: view.onEvent });
 */
export function createResearchView(options: {
  write: (text: string) => void;
  /** Writes the cursor movement of a redraw as it is (`write` shows control characters). */
  control?: (sequence: string) => void;
  isTTY: boolean;
  now: () => number;
}) {
  const rows = new Map<string, Row>();
  let drawn = 0;
  const width = () => Math.max(...[...rows.values()].map((row) => row.taskId.length), 6);
  const line = (row: Row) => {
    const time = seconds((row.ended ?? options.now()) - row.started);
    const task = row.task.length > 48 ? `${row.task.slice(0, 47)}…` : row.task;
    return `${row.taskId.padEnd(width())}  ${row.status.padEnd(20)}  ${String(row.sources).padStart(3)} src  ${time.padStart(6)}  ${String(row.tokens).padStart(6)} tok  ${task}`;
  };
  const redraw = () => {
    if (!options.isTTY) return;
    const text = [...rows.values()].map(line).join('\n');
    if (drawn > 0) options.control?.(`\x1b[${drawn}A\r\x1b[J`);
    options.write(`${text}\n`);
    drawn = rows.size;
  };
  return {
    onEvent(event: ResearchEvent) {
      if (event.type === 'run_started') {
        options.write(
          `Research run ${event.runId}: ${countOf(event.tasks.length, 'task')}${event.skippedTaskIds.length ? `, ${event.skippedTaskIds.length} already done` : ''}. Interrupted? Continue with \`cohort research --resume ${event.runId}\`.\n`,
        );
        return;
      }
      if (event.type === 'report') return;
      if (event.type === 'task_started') {
        rows.set(event.taskId, {
          taskId: event.taskId,
          task: event.task,
          status: 'started',
          sources: 0,
          started: options.now(),
          tokens: 0,
        });
        if (!options.isTTY) options.write(`[${event.taskId}] started: ${event.task}\n`);
      }
      const row = rows.get(event.taskId);
      if (!row) return;
      if (event.type === 'node') {
        if (event.status === 'started') row.status = NODE_LABEL[event.node];
        if (event.sources) row.sources += event.sources;
        if (event.tokens) row.tokens = event.tokens.total;
      }
      if (event.type === 'task_finished') {
        row.status = event.status;
        row.ended = options.now();
        row.tokens = event.tokens.total;
        if (!options.isTTY)
          options.write(
            `${line(row)}${event.finding.reason ? `  (${event.finding.reason})` : ''}\n`,
          );
      }
      redraw();
    },
  };
}
