import { Hono } from 'hono';
import type { Assistant } from '../../assistant/index.js';
import { ChatRequest, RouteRequest, routeResponse, toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { errorBody, HttpError } from '../api-error.js';
import { degradedFailure } from '../degraded-answer.js';
import { eventStreamResponse } from '../event-stream.js';
import { readBody } from '../read-body.js';
import type { ServerEnv } from '../server-env.js';
import { askedBy, requireSessionAccess } from '../session-access.js';

/**
 * `POST /chat` (one `ChatResponse`), `POST /chat/stream` (SSE: `route`, `delta`, `citations`,
 * `done`, or `error`) and `POST /route` (the routing decision alone).
 *
 * @example
 * app.route('/', chatRoutes({ assistant, store }));
 */
export function chatRoutes(parts: {
  assistant: Assistant;
  store: Pick<Store, 'ping' | 'sessions'>;
}) {
  const { assistant, store } = parts;
  const app = new Hono<ServerEnv>();

  app.post('/chat', async (c) => {
    const request = await readBody(c, ChatRequest);
    await requireSessionAccess(c, store, request.sessionId, { claim: true });
    const response = await assistant.ask(request, { signal: c.req.raw.signal, ...askedBy(c) });
    const failure = degradedFailure(response);
    if (failure) throw new HttpError(failure);
    return c.json(toWire(response));
  });

  app.post('/route', async (c) => {
    const { query } = await readBody(c, RouteRequest);
    return c.json(toWire(routeResponse(assistant.route(query))));
  });

  app.post('/chat/stream', async (c) => {
    const request = await readBody(c, ChatRequest);
    await requireSessionAccess(c, store, request.sessionId, { claim: true });
    return eventStreamResponse(c, {
      start: (signal) => assistant.askStream(request, { signal, ...askedBy(c) }),
      store,
      write: async (event, send) => {
        if (event.type === 'route') await send('route', routeResponse(event.route));
        if (event.type === 'delta') await send('delta', { text: event.text });
        if (event.type === 'citations') await send('citations', { citations: event.citations });
        if (event.type === 'done') {
          const failure = degradedFailure(event.response);
          if (failure) await send('error', errorBody(failure));
          else await send('done', event.response);
        }
      },
    });
  });

  return app;
}
