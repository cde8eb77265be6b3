import { Hono, type Context } from 'hono';
import { ANSWER_RUN_KIND, type AnswerRunInput } from '../../assistant/index.js';
import { toWire } from '../../schema/index.js';
import type { RunRecord, Store } from '../../store/index.js';
import { traceView } from '../../telemetry/index.js';
import { apiError, HttpError } from '../api-error.js';
import { runIdParam } from '../run-id-param.js';
import type { ServerEnv } from '../server-env.js';
import { isAnotherKeys } from '../session-access.js';

type TraceStore = Pick<Store, 'runs' | 'sessions' | 'owners'>;

/**
 * True when the caller may read `run`'s trace: an answer in a session is the session owner's, an
 * answer without one the API key's that asked (recorded with it; one recorded before owners were,
 * or asked without keys, is nobody's: its query id, a random UUID returned only to the caller, is
 * then the only key to it), any other run the API key's that started it.
 */
async function mayRead(c: Context<ServerEnv>, store: TraceStore, run: RunRecord): Promise<boolean> {
  if (!c.get('principal')) return true;
  if (run.kind === ANSWER_RUN_KIND) {
    const input = (run.input ?? {}) as Partial<Record<keyof AnswerRunInput, unknown>>;
    if (typeof input.sessionId === 'string' && input.sessionId !== 'anonymous')
      return !isAnotherKeys(c, await store.sessions.ownerOf(input.sessionId));
    return !isAnotherKeys(c, typeof input.owner === 'string' ? input.owner : undefined);
  }
  return !isAnotherKeys(c, await store.owners.ownerOf('run', run.id));
}

/**
 * `GET /runs/:id/trace`: the recorded spans of an answer (its `query_id`) or a research run (its
 * `run_id`), with the total duration, tokens and routing decision. Attribute names keep their
 * OpenTelemetry spelling (`gen_ai.usage.input_tokens`), so the keys of `attributes` are as
 * exported; the other fields are snake_case like the rest of the API.
 *
 * @example
 * app.route('/', traceRoutes({ store }));
 */
export function traceRoutes(parts: { store: TraceStore }) {
  const app = new Hono<ServerEnv>();
  app.get('/runs/:id/trace', async (c) => {
    const id = runIdParam(c);
    const found = await parts.store.runs.get(id);
    // Another API key's run is answered as an unknown one.
    const run = found && (await mayRead(c, parts.store, found)) ? found : undefined;
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
