import { createExtractiveRunner, createRagSkill } from '../src/agents/index.js';
import {
  createAssistant,
  createContextSkill,
  openAssistant,
  type Assistant,
} from '../src/assistant/index.js';
import { loadConfig } from '../src/config/index.js';
import { enableTracing, shutdownTracing } from '../src/telemetry/index.js';
import { startOtlpReceiver } from '../src/test/otlp-receiver.js';
import { round } from './stats.js';

/** Questions asked per round (each round runs every variant once, interleaved). */
const QUESTIONS = [
  'What is a ROS 2 topic?',
  'Which GPU does the workstation need?',
  'How does the capstone pipeline work?',
  'What is URDF?',
];
/** Interleaved rounds: the variants take turns so machine noise hits them alike. */
const ROUNDS = 60;
/** Rounds of answers whose queued traces are written in one batch when measuring the write. */
const BATCH_ROUNDS = 5;

/**
 * The cost of tracing on the whole answer path (sample book, in-memory store, extractive, the same
 * process and run): spans off (no recorder, no OpenTelemetry SDK: the API's no-op spans), the
 * default (every answer's spans queued for the store's trace view and written in batches after the
 * reply, no exporter loaded; the batched write's cost per answer is reported apart), and
 * exporting (the OpenTelemetry SDK with an OTLP/HTTP protobuf exporter to a local receiver).
 * Milliseconds per answer (median of rounds) and each variant's ratio to "off".
 *
 * @example
 * console.table(await benchTracing());
 */
export async function benchTracing(): Promise<Record<string, number | string>> {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const opened = await openAssistant({
    config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
  });
  const receiver = await startOtlpReceiver();
  try {
    const build = (traces: boolean): Assistant =>
      createAssistant({
        registry: opened.registry,
        router: opened.router,
        rag: createRagSkill(opened.retriever),
        context: createContextSkill(opened.store.sessions),
        runner: createExtractiveRunner(),
        ...(traces ? { traces: opened.store.runs } : {}),
      });
    const off = build(false);
    const recorded = build(true);
    const round1 = async (assistant: Assistant) => {
      const started = performance.now();
      for (const query of QUESTIONS) await assistant.ask({ query });
      return (performance.now() - started) / QUESTIONS.length;
    };
    for (let i = 0; i < 5; i++) {
      await round1(off);
      await round1(recorded);
    }
    const times = { off: [] as number[], recorded: [] as number[], exporting: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      // Each variant goes first in every other round, so going first or second favours neither.
      if (i % 2 === 0) {
        times.off.push(await round1(off));
        times.recorded.push(await round1(recorded));
      } else {
        times.recorded.push(await round1(recorded));
        times.off.push(await round1(off));
      }
    }
    // The default variant's store writes happen after the reply, batched: their cost per answer,
    // measured apart (answers given back to back, well within one flush delay, then one write).
    await opened.store.runs.flushTraces();
    const writes: number[] = [];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < BATCH_ROUNDS; j++) await round1(recorded);
      const started = performance.now();
      await opened.store.runs.flushTraces();
      writes.push((performance.now() - started) / (BATCH_ROUNDS * QUESTIONS.length));
    }
    // The SDK stays registered once enabled, so the exporting variant is measured last.
    await enableTracing({
      otlpEndpoint: receiver.endpoint,
      otlpProtocol: 'http/protobuf',
      otlpHeaders: {},
      serviceName: 'cohort-bench',
    });
    for (let i = 0; i < 5; i++) await round1(recorded);
    for (let i = 0; i < ROUNDS; i++) {
      times.exporting.push(await round1(recorded));
    }
    await shutdownTracing();
    const offMs = median(times.off);
    const recordedMs = median(times.recorded);
    const exportingMs = median(times.exporting);
    return {
      'answer ms, spans off (no recorder, no SDK)': round(offMs),
      'answer ms, default (spans to the store, no exporter)': round(recordedMs),
      'answer ms, exporting (SDK + OTLP protobuf)': round(exportingMs),
      'store write ms per answer (batched, after the reply)': round(median(writes)),
      'default / off': round(recordedMs / offMs),
      'exporting / off': round(exportingMs / offMs),
      'OTLP exports received': receiver.requests.length,
    };
  } finally {
    await receiver.close();
    await opened.close();
  }
}
