import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';
import { runCli } from '../test/run-cli.js';

// OpenTelemetry export end to end: `cohort ask` with a scripted model and `cohort research`,
// exporting over OTLP/HTTP to a local receiver, as a collector (Jaeger, Tempo…) would get them.

const byName = (spans: ReceivedSpan[], prefix: string) =>
  spans.filter((span) => span.name.startsWith(prefix));
const one = (spans: ReceivedSpan[], prefix: string) => {
  const found = byName(spans, prefix);
  expect(found, `one span named ${prefix}…`).toHaveLength(1);
  return found[0]!;
};

describe('OpenTelemetry export', () => {
  let model: FakeOpenAI | undefined;
  let receiver: OtlpReceiver | undefined;
  afterEach(async () => {
    await model?.close();
    await receiver?.close();
  });

  it('exports one `cohort ask` as nested request, routing, agent, model, tool and retrieval spans', async () => {
    receiver = await startOtlpReceiver();
    model = await startFakeOpenAI({
      chat: [
        {
          kind: 'tool_call',
          name: 'search_book_content',
          arguments: '{"query":"ROS 2 topic","top_k":3}',
          usage: { prompt: 90, completion: 12 },
        },
        {
          kind: 'text',
          text: 'A topic is a named channel for messages [1].',
          usage: { prompt: 120, completion: 18 },
        },
      ],
    });
    const { code } = await runCli(['ask', 'What is a ROS 2 topic?', '--json'], {
      OPENAI_BASE_URL: model.baseUrl,
      COHORT_MODEL: 'scripted',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'cohort-under-test',
    });
    expect(code).toBe(0);
    expect(receiver.requests.every((request) => request.path === '/v1/traces')).toBe(true);
    const spans = receiver.spans();
    const ask = one(spans, 'cohort.ask');
    expect(ask.parentSpanId).toBe('');
    expect(ask.serviceName).toBe('cohort-under-test');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const routing = one(spans, 'cohort.routing');
    expect(routing.parentSpanId).toBe(ask.spanId);
    expect(routing.attributes).toMatchObject({
      'cohort.routing.agent': 'glossary',
      'cohort.routing.phase': expect.any(String),
      'cohort.routing.confidence': expect.any(Number),
    });
    const agent = one(spans, 'invoke_agent glossary');
    expect(agent.parentSpanId).toBe(ask.spanId);

    const chats = byName(spans, 'chat scripted');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(agent.spanId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'scripted',
      });
    }
    expect(chats.map((chat) => chat.attributes['gen_ai.usage.input_tokens']).sort()).toEqual([
      120, 90,
    ]);
    expect(chats.map((chat) => chat.attributes['gen_ai.usage.output_tokens']).sort()).toEqual([
      12, 18,
    ]);

    const tool = one(spans, 'execute_tool search_book_content');
    expect(tool.parentSpanId).toBe(agent.spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_book_content',
    });
    const retrieval = one(spans, 'cohort.retrieval');
    expect(retrieval.parentSpanId).toBe(tool.spanId);
    expect(retrieval.attributes['cohort.retrieval.hits']).toBeGreaterThan(0);
    // The tool ran between the two model calls (start times are whole milliseconds: 1 ms slack).
    const ms = 1_000_000n;
    const [first, second] = [...chats].sort((a, b) => Number(a.startNs - b.startNs));
    expect(tool.startNs + ms >= first!.endNs).toBe(true);
    expect(tool.endNs <= second!.startNs + ms).toBe(true);
  }, 60_000);

  it('exports a research run with one span per task, the tasks running in parallel', async () => {
    receiver = await startOtlpReceiver();
    const { code } = await runCli(
      [
        'research',
        'What is a ROS 2 topic, which GPU does the workstation need and what is the capstone project?',
        '--tasks',
        '3',
        '--json',
      ],
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    );
    expect(code).toBe(0);
    const spans = receiver.spans();
    const root = one(spans, 'cohort.research');
    const tasks = byName(spans, 'research.task');
    expect(tasks).toHaveLength(3);
    for (const task of tasks) expect(task.parentSpanId).toBe(root.spanId);
    // Parallel: every task started before any finished.
    const lastStart = tasks.map((task) => task.startNs).reduce((a, b) => (a > b ? a : b));
    const firstEnd = tasks.map((task) => task.endNs).reduce((a, b) => (a < b ? a : b));
    expect(lastStart < firstEnd).toBe(true);
    const nodes = byName(spans, 'research.node');
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    const taskIds = new Set(tasks.map((task) => task.spanId));
    for (const node of nodes) expect(taskIds.has(node.parentSpanId)).toBe(true);
  }, 60_000);

  it('exports OTLP protobuf by default', async () => {
    receiver = await startOtlpReceiver();
    const { code } = await runCli(['ask', 'What is a ROS 2 topic?'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(code).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    const request = receiver.requests[0]!;
    expect(request.contentType).toBe('application/x-protobuf');
    // Protobuf keeps strings as UTF-8 bytes: the span names are in the body.
    expect(request.body.toString('latin1')).toContain('cohort.routing');
    expect(request.body.toString('latin1')).toContain('cohort.retrieval');
  }, 60_000);
});
