import type { SpanRecord } from '../telemetry/index.js';
import type { RunRecord, TracedRun } from './run-repo.js';
import { mayDropRun } from './run-retention.js';

/** One run's trace as {@link MemoryTraces} keeps it: JSON ({@link packed}), a fraction of the objects' size. */
interface KeptTrace {
  /** The run as first recorded (a later recording keeps it, as the engine does). */
  run: string;
  /** The run's spans, in the order {@link MemoryTraces.spans} returns them. */
  spans: string;
  /** Whether the limit may drop it, from the run's latest recorded kind and status. */
  droppable: boolean;
}

/** The engine's order of a run's spans: start time, then span id. */
const byStart = (a: SpanRecord, b: SpanRecord) =>
  a.startMs - b.startMs || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

/** A span as the engine gives it back: `status` is `ok` unless `error`, an empty error is none. */
function asStored(span: SpanRecord): SpanRecord {
  return {
    spanId: span.spanId,
    parentId: span.parentId,
    name: span.name,
    startMs: span.startMs,
    durationMs: span.durationMs,
    status: span.status === 'error' ? 'error' : 'ok',
    ...(span.error ? { error: span.error } : {}),
    attributes: span.attributes,
  };
}

/**
 * `value` as JSON, kept as its UTF-8 bytes one character per byte: V8 then stores it one byte per
 * character, where a single character beyond Latin-1 (the `≥` of a routing reason) makes JSON
 * text take two bytes per character, twice the memory for most traces. {@link unpacked} reads it.
 */
function packed(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('latin1');
}

/** The value {@link packed} kept. */
function unpacked<T>(text: string): T {
  return JSON.parse(Buffer.from(text, 'latin1').toString('utf8')) as T;
}

/** The spans whose id is not in `seen` yet, the first of each id (adds their ids to `seen`). */
function unseen(spans: readonly SpanRecord[], seen: Set<string>): SpanRecord[] {
  const fresh: SpanRecord[] = [];
  for (const span of spans) {
    if (seen.has(span.spanId)) continue;
    seen.add(span.spanId);
    fresh.push(span);
  }
  return fresh;
}

/**
 * The traces of a `memory://` store, kept in this process instead of its in-memory engine. Every
 * answer records a trace, and each write grows the in-memory engine's files for good (its log is
 * never recycled): about 75 MB of a server's peak after 8,000 extractive `/chat` answers, where
 * these traces take a few MB. Nothing in a `memory://` store outlives the process, so nothing is
 * lost by keeping them out of the engine.
 *
 * It answers as the engine's tables would (`RunRepo` reads the run and its spans from here): a
 * run is kept as first recorded, a span id recorded again is ignored, spans come back in start
 * order, values as JSON gives them back. At most `keepRuns` traces that {@link mayDropRun} allows
 * dropping are kept, the oldest going first; unset keeps every one.
 *
 * @example
 * const traces = new MemoryTraces({ keepRuns: 1000 });
 * traces.record({ id: 'q1', kind: 'answer', status: 'done', input: {} }, spans);
 * traces.spans('q1'); // the spans in start order
 */
export class MemoryTraces {
  /** By run id, oldest recorded first (a `Map` keeps insertion order). */
  private readonly traces = new Map<string, KeptTrace>();
  /** How many of {@link traces} the limit may drop. */
  private droppable = 0;
  private readonly keepRuns: number | undefined;

  constructor(options: { keepRuns?: number } = {}) {
    this.keepRuns = options.keepRuns;
  }

  /** How many runs' traces are kept. */
  get size(): number {
    return this.traces.size;
  }

  /** Keeps a finished run's spans, and the run when it has none yet (see the class comment). */
  record(run: TracedRun, spans: readonly SpanRecord[]): void {
    const droppable = mayDropRun(run);
    const kept = this.traces.get(run.id);
    if (kept) {
      const known = unpacked<SpanRecord[]>(kept.spans);
      const added = unseen(spans, new Set(known.map((span) => span.spanId)));
      if (added.length > 0) kept.spans = packed([...known, ...added.map(asStored)].sort(byStart));
      if (kept.droppable !== droppable) this.droppable += droppable ? 1 : -1;
      kept.droppable = droppable;
    } else {
      const first = unseen(spans, new Set());
      this.traces.set(run.id, {
        run: packed({
          id: run.id,
          kind: run.kind,
          status: run.status,
          input: run.input ?? {},
        }),
        spans: packed(first.map(asStored).sort(byStart)),
        droppable,
      });
      if (droppable) this.droppable++;
    }
    this.dropOldest();
  }

  /** The run as first recorded, with no output (a run only traced has none), or undefined. */
  run(id: string): RunRecord | undefined {
    const kept = this.traces.get(id);
    return kept && { ...unpacked<TracedRun>(kept.run), output: null };
  }

  /** The recorded spans of a run, in start order (then span id); empty for an unknown run. */
  spans(runId: string): SpanRecord[] {
    const kept = this.traces.get(runId);
    return kept ? unpacked<SpanRecord[]>(kept.spans) : [];
  }

  /** Drops the oldest droppable traces beyond `keepRuns`. */
  private dropOldest(): void {
    if (this.keepRuns === undefined) return;
    for (const [id, kept] of this.traces) {
      if (this.droppable <= this.keepRuns) return;
      if (!kept.droppable) continue;
      this.traces.delete(id);
      this.droppable--;
    }
  }
}
