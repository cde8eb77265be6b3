import * as z from 'zod';
import { lazySchema } from '../schema/lazy-schema.js';

/** The OTLP protocols cohort exports with (the OpenTelemetry spec's default first). */
export const OtlpProtocol = lazySchema(() => z.enum(['http/protobuf', 'http/json']));
export type OtlpProtocol = z.infer<typeof OtlpProtocol>;

/** The service name spans carry when `OTEL_SERVICE_NAME` is not set. */
export const DEFAULT_SERVICE_NAME = 'cohort';

/**
 * Where OpenTelemetry spans go (`telemetry` section of the config). With no endpoint nothing is
 * exported and the OpenTelemetry SDK is not even loaded; the store's trace view works either way.
 */
export const TracingSettings = lazySchema(() =>
  z.object({
    /** OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`); traces go to `<endpoint>/v1/traces`. */
    otlpEndpoint: z.string().url().optional(),
    /** Full traces URL (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), used as is. */
    otlpTracesEndpoint: z.string().url().optional(),
    /** `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf` (default) or `http/json`. */
    otlpProtocol: OtlpProtocol.default('http/protobuf'),
    /** Extra headers for the collector (`OTEL_EXPORTER_OTLP_HEADERS`, `key=value,key=value`). */
    otlpHeaders: z.record(z.string(), z.string()).default({}),
    serviceName: z.string().min(1).default(DEFAULT_SERVICE_NAME),
  }),
);
export type TracingSettings = z.infer<typeof TracingSettings>;

/** The traces URL the settings export to, or undefined when tracing export is off. */
export function tracesUrl(settings: TracingSettings): string | undefined {
  if (settings.otlpTracesEndpoint) return settings.otlpTracesEndpoint;
  if (!settings.otlpEndpoint) return undefined;
  return `${settings.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
}

/** Reads `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,key2=value2`, values URL-encoded). */
export function parseOtlpHeaders(value: string | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}
