import { CohortError } from '../errors/index.js';
import { tracesUrl, type TracingSettings } from './tracing-settings.js';

/** An enabled exporter: flush before a short process exits; shut down to stop exporting. */
export interface TracingHandle {
  readonly url: string;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let active: Promise<TracingHandle | undefined> | undefined;

/**
 * Starts exporting cohort's spans over OTLP/HTTP when the settings name an endpoint; otherwise
 * does nothing and loads nothing (the SDK and exporter are imported only here, on demand). The
 * first call wins: later calls return the same handle.
 *
 * @example
 * const tracing = await enableTracing(config.telemetry); // OTEL_EXPORTER_OTLP_ENDPOINT set
 * … ; await tracing?.shutdown();
 */
export function enableTracing(settings: TracingSettings): Promise<TracingHandle | undefined> {
  const url = tracesUrl(settings);
  if (!url) return active ?? Promise.resolve(undefined);
  active ??= start(settings, url);
  return active;
}

/** Flushes and stops the exporter started by {@link enableTracing}, if any. */
export async function shutdownTracing(): Promise<void> {
  const handle = await active;
  active = undefined;
  await handle?.shutdown();
}

async function start(settings: TracingSettings, url: string): Promise<TracingHandle> {
  try {
    const [
      { trace },
      { TracerProvider, BatchSpanProcessor },
      { resourceFromAttributes },
      exporterModule,
    ] = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/resources'),
      settings.otlpProtocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
    const exporter = new exporterModule.OTLPTraceExporter({ url, headers: settings.otlpHeaders });
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
    });
    trace.setGlobalTracerProvider(provider);
    return {
      url,
      flush: () => provider.forceFlush(),
      async shutdown() {
        await provider.shutdown();
        trace.disable();
      },
    };
  } catch (cause) {
    active = undefined;
    throw new CohortError(
      'invalid_input',
      `Cannot start OpenTelemetry export to ${url}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
