import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { mapWithConcurrency } from '../agents/loop/index.js';
import { CohortError, isCohortError, parseInput } from '../errors/index.js';
import { Query, ResearchResult, ResearchTask, type Finding } from '../schema/index.js';
import { isolateSubgraphState } from './isolation.js';
import { planTasks } from './plan-tasks.js';
import { mergeExtractedCitations, mergeFindings } from './reducers.js';
import type { ResearchDependencies } from './research-dependencies.js';
import type { RunBusy, RunHold } from '../store/index.js';
import type { ResearchEvent, ResearchEventHandler } from './research-events.js';
import { subagentNode, type SubagentRunner } from './subagent-node.js';
import { SubagentOutput } from './subagent-state.js';
import { createVisitedRegistry } from './visited-registry.js';
import { researchSpans } from './research-spans.js';
import {
  startTrace,
  type RemoteParent,
  type SpanCollector,
  type TraceSpan,
} from '../telemetry/index.js';
import { writeReport } from './write-report.js';
import { lazySchema } from '../schema/lazy-schema.js';

/** The `kind` of research runs in the store. */
export const RESEARCH_RUN_KIND = 'research';

/** What a research run stores as its input, so `--resume` can continue it. */
const StoredRunInput = lazySchema(() =>
  z.object({ question: z.string(), tasks: z.array(ResearchTask).min(1) }),
);

/** Options of {@link runResearch}: the dependencies plus what this run should do. */
export interface ResearchOptions extends ResearchDependencies {
  /** At most this many tasks (`--tasks N`); `research.maxTasks` by default. */
  maxTasks?: number;
  /** Continue this stored run: finished tasks are not run again. */
  resume?: string;
  signal?: AbortSignal;
  onEvent?: ResearchEventHandler;
  /** Replaces the subagent (tests, bench); the spec's graph by default. */
  subagentRunner?: SubagentRunner;
  /** The span the run nests under (an MCP `tools/call`), or a caller's W3C `traceparent`. */
  parent?: TraceSpan | RemoteParent;
}

function failedOutput(task: ResearchTask, error: unknown, mode: Finding['mode']): SubagentOutput {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    subagentFindings: [
      {
        taskId: task.id,
        task: task.description,
        summary: 'No finding: the subagent failed.',
        reasoning: '',
        citations: [],
        mode,
        status: 'failed',
        reason,
      },
    ],
    visitedSources: [],
    allExtractedCitations: [],
  };
}

/** The `not_found` of a research run to resume that is not there (or, over HTTP, is another API key's). */
export function noResearchRun(runId: string): CohortError {
  return new CohortError(
    'not_found',
    `No research run "${runId}". Check the id printed when the run started.`,
  );
}

/** Checks a caller's access to a run: `claim` records the caller as a new run's owner. */
export type RequireRunAccess = (
  runId: string,
  options: { claim: boolean },
  refusal: () => Error,
) => Promise<void>;

/**
 * The run a research request may use under a server's ownership rule: a resumed run must be the
 * caller's (else the `not_found` of an unknown run); a new run's id is chosen here and its owner
 * recorded before it starts.
 */
export async function ownedResearchRun(
  requireRun: RequireRunAccess,
  resume: string | undefined,
): Promise<{ newId?: () => string }> {
  if (resume) {
    await requireRun(resume, { claim: false }, () => noResearchRun(resume));
    return {};
  }
  const runId = randomUUID();
  await requireRun(runId, { claim: true }, () => noResearchRun(runId));
  return { newId: () => runId };
}

/**
 * The research runs this process is running now, per run store without claims (`start`/`take`,
 * a test's fake): a second run of one id (a resume while the run goes on) would run its pending
 * tasks again beside it, every model call twice. The store's runs are claimed in the database
 * instead, which also holds between processes.
 */
const runningNow = new WeakMap<object, Set<string>>();

/** Marks `runId` as running in this process, or throws `conflict` when it already is. */
function claimRunning(runs: object | undefined, runId: string): () => void {
  if (!runs) return () => undefined;
  let ids = runningNow.get(runs);
  if (!ids) runningNow.set(runs, (ids = new Set()));
  if (ids.has(runId))
    throw new CohortError(
      'conflict',
      `Research run ${runId} is running now; wait for its report (resuming it then shows the report), or stop it before resuming it.`,
    );
  const mine = ids;
  mine.add(runId);
  return () => void mine.delete(runId);
}

/** The `conflict` of a run another process (or this one) holds now, saying when to retry. */
function runBusy(runId: string, busy: RunBusy): CohortError {
  const until = busy.claimedUntil?.toISOString().replace(/\.\d+Z$/, 'Z');
  return new CohortError(
    'conflict',
    `Research run ${runId} is running now, in this or another cohort process sharing the database; wait for its report (resuming it then shows the report).` +
      (until
        ? ` If that process was stopped without finishing (killed, its machine lost), its claim lapses at ${until} unless renewed: resume it after that.`
        : ''),
  );
}

/**
 * Takes a stored run to resume it (see `RunRepo.take`): the run as loaded after taking it (the
 * tasks its last holder saved), or, when it finished meanwhile, with its report.
 */
async function takeToResume(options: ResearchOptions, runId: string, box: { hold?: RunHold }) {
  const runs = options.runs;
  const stored = await loadRun(options, runId);
  if (!runs?.take || stored.done) return stored;
  const taken = await runs.take(runId);
  if (!taken) throw noResearchRun(runId);
  if ('finish' in taken) box.hold = taken;
  else if (taken.status !== 'done') throw runBusy(runId, taken);
  return loadRun(options, runId);
}

/** The `conflict` of a run whose claim this process lost: its report is not stored from here. */
function claimLost(runId: string, hold: RunHold): CohortError {
  const reason = hold.lost.aborted ? String(hold.lost.reason) : 'its claim had lapsed';
  return new CohortError(
    'conflict',
    `Research run ${runId} was stopped here: ${reason}. Resume it (\`cohort research --resume ${runId}\`) to see its report once that run ends.`,
  );
}

async function loadRun(options: ResearchOptions, runId: string) {
  const runs = options.runs;
  if (!runs)
    throw new CohortError(
      'invalid_input',
      'Resuming a research run needs the store; none was given.',
    );
  const record = await runs.get(runId);
  if (!record || record.kind !== RESEARCH_RUN_KIND) throw noResearchRun(runId);
  const input = parseInput(StoredRunInput, record.input, { prefix: `Stored run ${runId}: ` });
  const finished = new Map<string, SubagentOutput>();
  for (const saved of await runs.tasks(runId)) {
    const output = SubagentOutput.safeParse(saved.output);
    if (saved.status === 'done' && output.success) finished.set(saved.taskId, output.data);
  }
  const stored = record.status === 'done' ? ResearchResult.safeParse(record.output) : undefined;
  return { ...input, finished, done: stored?.success ? stored.data : undefined };
}

/**
 * Runs a research question end to end: the lead step plans tasks, one isolated subagent per task
 * runs in parallel (at most `research.concurrency` at once), their outputs are merged with
 * reducers under each task's namespace, and the report is written. Each finished task is saved
 * in the store, so `resume: runId` continues an interrupted run without redoing finished tasks.
 *
 * @example
 * const result = await runResearch('How do humanoid robots keep their balance?', {
 *   settings: config.research, retriever, model, onEvent: (event) => console.log(event.type),
 * });
 * console.log(result.report);
 */
export async function runResearch(
  question: string,
  options: ResearchOptions,
): Promise<ResearchResult> {
  const collector: SpanCollector | undefined = options.runs?.recordTrace
    ? { spans: [] }
    : undefined;
  const root = startTrace(
    'cohort.research',
    { 'cohort.research.resume': Boolean(options.resume) },
    collector,
    options.parent,
  );
  let runId: string | undefined;
  let status = 'failed';
  let release = () => undefined as void;
  // The store's claim on the run, once taken: given up below if the run did not finish.
  const box: { hold?: RunHold } = {};
  try {
    const result = await research(question, options, root, box, (id, running) => {
      // Claimed first: a refused second run records no trace under the running run's id.
      if (running && !box.hold) release = claimRunning(options.runs, id);
      runId = id;
    });
    status = 'done';
    return result;
  } catch (error) {
    status = isCohortError(error, 'aborted') ? 'interrupted' : 'failed';
    root.fail(error);
    throw error;
  } finally {
    release();
    await box.hold?.release().catch((cause: unknown) => {
      options.logger?.warn('run_claim_not_released', { runId, cause: String(cause) });
    });
    root.end({ 'cohort.research.status': status });
    if (collector && runId) {
      try {
        options.runs?.recordTrace?.(
          { id: runId, kind: RESEARCH_RUN_KIND, status, input: {} },
          collector.spans,
        );
      } catch (cause) {
        options.logger?.warn('trace_not_saved', { runId, cause: String(cause) });
      }
    }
  }
}

async function research(
  question: string,
  options: ResearchOptions,
  root: TraceSpan,
  box: { hold?: RunHold },
  /** Called once the run's id is known; `running` when its tasks are about to run. */
  identify: (runId: string, running: boolean) => void,
): Promise<ResearchResult> {
  const now = options.clock ?? (() => performance.now());
  let signal = options.signal ?? new AbortController().signal;
  const settings = options.settings;
  const spans = researchSpans(root);
  const emit = (event: ResearchEvent) => {
    spans.observe(event);
    try {
      options.onEvent?.(event);
    } catch (error) {
      options.logger?.warn('research_event_handler_failed', { error: String(error) });
    }
  };
  const mode: Finding['mode'] = options.model ? 'model' : 'extractive';
  let runId: string;
  let query: string;
  let tasks: ResearchTask[];
  let finished = new Map<string, SubagentOutput>();
  if (options.resume) {
    const run = await takeToResume(options, options.resume, box);
    if (run.done) {
      identify(run.done.runId, false);
      emit({ type: 'report', runId: run.done.runId, result: run.done });
      return run.done;
    }
    ({ question: query, tasks, finished } = run);
    runId = options.resume;
    if (!box.hold) await options.runs?.update(runId, { status: 'running' });
  } else {
    query = parseInput(Query, question, { prefix: 'Research question: ' });
    const planning = root.child('research.plan');
    const plan = await planTasks(query, {
      ...((options.leadModel ?? options.model)
        ? { model: options.leadModel ?? options.model }
        : {}),
      maxTasks: options.maxTasks ?? settings.maxTasks,
      timeoutMs: settings.timeoutLlmCall * 1000,
      maxRetries: settings.maxRetries,
      signal,
    });
    if (plan.reason) options.logger?.info('research_planned_by_clauses', { reason: plan.reason });
    tasks = plan.tasks;
    planning.end({
      'cohort.research.tasks': tasks.length,
      ...(plan.reason ? { 'cohort.research.plan_reason': plan.reason } : {}),
    });
    runId = options.newId?.() ?? randomUUID();
    const input = { question: query, tasks };
    if (options.runs?.start)
      box.hold = await options.runs.start({ id: runId, kind: RESEARCH_RUN_KIND, input });
    else
      await options.runs?.create({ id: runId, kind: RESEARCH_RUN_KIND, status: 'running', input });
  }
  const hold = box.hold;
  // A claim lost (this process stalled past its lease, another took the run) stops the run.
  if (hold) signal = AbortSignal.any([signal, hold.lost]);
  const finish = async (patch: { status: string; output?: unknown }) => {
    if (!hold) return options.runs?.update(runId, patch);
    if (!(await hold.finish(patch))) throw claimLost(runId, hold);
  };
  identify(runId, true);
  root.set({ 'cohort.run_id': runId, 'cohort.research.tasks': tasks.length });
  let findings: Finding[] = [];
  let citations = [...finished.values()].flatMap((output) => output.allExtractedCitations);
  const order = tasks.map((task) => task.id);
  for (const output of finished.values())
    findings = mergeFindings(findings, output.subagentFindings, order);
  // The one record of visited sources: seeded from resumed tasks, claimed into by every subagent.
  const registry = createVisitedRegistry(
    [...finished.values()].flatMap((output) => output.visitedSources),
  );
  emit({
    type: 'run_started',
    runId,
    question: query,
    tasks,
    skippedTaskIds: [...finished.keys()],
  });

  const pending = tasks.filter((task) => !finished.has(task.id));
  await mapWithConcurrency(pending, settings.concurrency, async (task) => {
    if (signal.aborted) return;
    emit({ type: 'task_started', runId, taskId: task.id, task: task.description });
    const started = now();
    const tokens = { input: 0, output: 0, total: 0 };
    const context = { ...options, runId, taskId: task.id, registry, signal, emit, tokens, now };
    const input = isolateSubgraphState({ query, tasks, visitedSources: registry.list() }, task.id);
    let output: SubagentOutput;
    try {
      output = await subagentNode(input, context, options.subagentRunner);
    } catch (error) {
      if (signal.aborted || isCohortError(error, 'aborted')) return;
      options.logger?.error('research_subagent_failed', {
        runId,
        taskId: task.id,
        error: String(error),
      });
      output = failedOutput(task, error, mode);
    }
    // Reducers: each subagent writes only under its own task id.
    findings = mergeFindings(findings, output.subagentFindings, order);
    citations = mergeExtractedCitations(citations, output.allExtractedCitations);
    const finding =
      output.subagentFindings[0] ??
      failedOutput(task, 'no finding returned', mode).subagentFindings[0]!;
    await options.runs?.saveTask({ runId, taskId: task.id, status: finding.status, output });
    emit({
      type: 'task_finished',
      runId,
      taskId: task.id,
      status: finding.status,
      sources: output.visitedSources.length - input.visitedSources.length,
      durationMs: Math.round(now() - started),
      tokens,
      finding,
    });
  });

  if (hold?.lost.aborted) throw claimLost(runId, hold);
  if (signal.aborted) {
    await finish({ status: 'interrupted' }).catch(() => undefined);
    throw new CohortError(
      'aborted',
      `Research run ${runId} was interrupted; continue it with \`cohort research --resume ${runId}\`.`,
    );
  }
  const written = writeReport(query, findings, mode);
  const result: ResearchResult = {
    runId,
    question: query,
    tasks,
    findings: written.findings,
    sources: written.sources,
    report: written.report,
    mode,
  };
  options.logger?.debug('research_citations', { runId, count: citations.length });
  await finish({ status: 'done', output: result });
  emit({ type: 'report', runId, result });
  return result;
}

/**
 * {@link runResearch} as a stream of events, ending with the `report` event; a failed run ends
 * the stream with its error.
 *
 * @example
 * for await (const event of streamResearch(question, dependencies)) console.log(event.type);
 */
export async function* streamResearch(
  question: string,
  options: ResearchOptions,
): AsyncGenerator<ResearchEvent> {
  const queue: ResearchEvent[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  const run = runResearch(question, {
    ...options,
    onEvent: (event) => {
      options.onEvent?.(event);
      queue.push(event);
      wake?.();
    },
  }).then(
    () => undefined,
    (error: unknown) => {
      failure = error;
    },
  );
  void run.finally(() => {
    finished = true;
    wake?.();
  });
  while (true) {
    const event = queue.shift();
    if (event) {
      yield event;
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined) throw failure;
}
