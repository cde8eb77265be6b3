export * from './logger.js';
export {
  startTrace,
  inSpan,
  parseTraceparent,
  type RemoteParent,
  TRACER_NAME,
  type TraceSpan,
  type SpanRecord,
  type SpanCollector,
} from './trace-span.js';
export {
  TracingSettings,
  OtlpProtocol,
  DEFAULT_SERVICE_NAME,
  tracesUrl,
  parseOtlpHeaders,
} from './tracing-settings.js';
export { enableTracing, shutdownTracing, type TracingHandle } from './otlp-export.js';
export { GEN_AI } from './gen-ai.js';
export { traceView, type TraceView } from './trace-view.js';
export { countOf } from './plural.js';
