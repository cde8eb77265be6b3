import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAssistant, type OpenedAssistant } from '../assistant/index.js';
import { loadConfig } from '../config/index.js';
import { startServer, type RunningServer } from '../server/index.js';
import { enableTracing, shutdownTracing, type TracingHandle } from '../telemetry/index.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';

// A call arriving at /mcp continues its caller's trace (MCP's `_meta.traceparent`, or the HTTP
// request's `traceparent` header), and the answer it runs nests under the MCP span, in the
// exported trace and in the store's.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const HEADER_TRACE_ID = 'a3ce929d0e0e47364bf92f3577b34da6';

describe('MCP calls in the trace', () => {
  let receiver: OtlpReceiver;
  let tracing: TracingHandle | undefined;
  let opened: OpenedAssistant;
  let running: RunningServer;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await enableTracing({
      otlpEndpoint: receiver.endpoint,
      otlpProtocol: 'http/json',
      otlpHeaders: {},
      serviceName: 'cohort-mcp-trace',
    });
    opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
    });
    running = await startServer(opened, {
      server: { port: 0, host: '127.0.0.1' },
      handleSignals: false,
      close: opened.close,
    });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await shutdownTracing();
    await receiver?.close();
  });

  const connect = async (headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'cohort-trace-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), {
        requestInit: { headers },
      }),
    );
    return client;
  };
  const askStructured = (value: unknown) => value as { query_id: string };
  const spansOf = async (traceId: string) => {
    await tracing?.flush();
    return receiver.spans().filter((span) => span.traceId === traceId);
  };
  const one = (spans: ReceivedSpan[], name: string) => {
    const found = spans.filter((span) => span.name === name);
    expect(found, name).toHaveLength(1);
    return found[0]!;
  };

  it("continues the caller's _meta.traceparent, and the answer nests under the MCP span", async () => {
    const client = await connect();
    try {
      const result = await client.callTool({
        name: 'ask',
        arguments: { query: 'What is a ROS 2 topic?' },
        _meta: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      });
      const spans = await spansOf(TRACE_ID);
      const call = one(spans, 'mcp tools/call ask');
      expect(call.parentSpanId).toBe(CALLER_SPAN);
      const ask = one(spans, 'cohort.ask');
      expect(ask.parentSpanId).toBe(call.spanId);
      expect(one(spans, 'cohort.routing').parentSpanId).toBe(ask.spanId);

      // The store's trace of the answer names the MCP span as the parent of its root.
      const { query_id } = askStructured(result.structuredContent);
      const stored = await opened.store.runs.spans(query_id);
      expect(stored.find((span) => span.name === 'cohort.ask')?.parentId).toBe(call.spanId);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('continues the traceparent header of the HTTP request when _meta has none', async () => {
    const client = await connect({ traceparent: `00-${HEADER_TRACE_ID}-${CALLER_SPAN}-01` });
    try {
      await client.callTool({ name: 'route', arguments: { query: 'Which GPU do I need?' } });
      const call = one(await spansOf(HEADER_TRACE_ID), 'mcp tools/call route');
      expect(call.parentSpanId).toBe(CALLER_SPAN);
    } finally {
      await client.close();
    }
  }, 60_000);
});
