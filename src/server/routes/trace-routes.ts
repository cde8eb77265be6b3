import { Hono } from 'hono';
import { toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { traceView } from '../../telemetry/index.js';
import { apiError, HttpError } from '../api-error.js';
import { runIdParam } from '../run-id-param.js';
import type { ServerEnv } from '../server-env.js';

/**
 * `GET /runs/:id/trace`: the recorded spans of an answer (its `query_id`) or a research run (its
 * `run_id`), with the total duration, tokens and routing decision. Attribute names keep their
 * OpenTelemetry spelling (`gen_ai.usage.input_tokens`), so the keys of `attributes` are as
 * exported; the other fields are snake_case like the rest of the API.
 *
 * @example
 * app.route('/', traceRoutes({ store }));
 */
export function traceRoutes(parts: { store: Pick<Store, 'runs'> }) {
  const app = new Hono<ServerEnv>();
  app.get('/runs/:id/trace', async (c) => {
    const id = runIdParam(c);
    const run = await parts.store.runs.get(id);
    const spans = run ? await parts.store.runs.spans(id) : [];
    if (!run || spans.length === 0)
      throw new HttpError(
        apiError(
          'not_found',
          `No trace for run "${id}": use the query_id of an answer or the run_id of a research run recorded by this server.`,
          'id',
        ),
      );
    const { routing, spans: viewSpans, ...totals } = traceView(run, spans);
    // Attribute names are OpenTelemetry's, not cohort's camelCase: they go out untouched.
    return c.json({
      ...toWire(totals),
      routing: routing ? toWire(routing) : null,
      spans: viewSpans.map(({ attributes, error, ...span }) => ({
        ...toWire(span),
        error: error ?? null,
        attributes,
      })),
    });
  });
  return app;
}
