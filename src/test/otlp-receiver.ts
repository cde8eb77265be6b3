import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/JSON export carries it, with its attributes read into plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  serviceName: string;
}

/** A local OTLP/HTTP receiver: records every export it is sent, decoding OTLP/JSON bodies. */
export interface OtlpReceiver {
  readonly endpoint: string;
  /** Every request: its path, content type and raw body. */
  readonly requests: { path: string; contentType: string; body: Buffer }[];
  /** The spans of every OTLP/JSON export so far. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

interface JsonAttribute {
  key: string;
  value: Record<string, unknown>;
}

function valueOf(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) {
    const values = (value.arrayValue as { values?: Record<string, unknown>[] }).values ?? [];
    return values.map(valueOf);
  }
  return undefined;
}

const attributesOf = (list: JsonAttribute[] | undefined) =>
  Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));

/**
 * Starts a receiver on a free loopback port; point `OTEL_EXPORTER_OTLP_ENDPOINT` at `endpoint`.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * // … run with OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL=http/json
 * expect(receiver.spans().map((s) => s.name)).toContain('cohort.ask');
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      const json = /json/.test(request.headers['content-type'] ?? '');
      response.writeHead(200, {
        'content-type': json ? 'application/json' : 'application/x-protobuf',
      });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spans() {
      const spans: ReceivedSpan[] = [];
      for (const request of requests) {
        if (!/json/.test(request.contentType)) continue;
        const body = JSON.parse(request.body.toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: JsonAttribute[] };
            scopeSpans?: {
              spans?: {
                traceId: string;
                spanId: string;
                parentSpanId?: string;
                name: string;
                startTimeUnixNano: string;
                endTimeUnixNano: string;
                attributes?: JsonAttribute[];
              }[];
            }[];
          }[];
        };
        for (const resource of body.resourceSpans ?? []) {
          const serviceName = String(attributesOf(resource.resource?.attributes)['service.name']);
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                startNs: BigInt(span.startTimeUnixNano),
                endNs: BigInt(span.endTimeUnixNano),
                attributes: attributesOf(span.attributes),
                serviceName,
              });
        }
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
