// The HTTP ceiling: a bare Hono app on @hono/node-server with the same two routes' shape as
// cohort's (`GET /healthz` answers JSON; `POST /route` parses a JSON body and answers JSON).
// Prints its URL on the first line of stdout.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.post('/route', async (c) => {
  const { query } = await c.req.json();
  return c.json({ agent: 'book', query });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
