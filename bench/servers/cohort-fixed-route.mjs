// cohort's HTTP server with routing left out: the same server code as cohort-sample.mjs (built
// from the compiled library, same middleware, validation and serialisation), over an assistant
// whose `route` returns one fixed decision without any work. `POST /route` on it is the server's
// own path, so the bench can tell the server's cost from routing's. Prints its URL on stdout.
import { startServer, useServerHeapSettings } from '../../dist/server/index.js';

// The heap settings of `cohort serve`, as cohort-sample.mjs sets them: the two differ by routing only.
useServerHeapSettings();

const decision = {
  primaryAgent: 'module_info',
  secondaryAgents: [],
  confidence: 0.865,
  routingReason:
    'Keyword phase: module_info keywords matched (how do, ros 2), score 0.84 ≥ threshold 0.7, and no other specialist has a keyword in the query.',
  isMultiDomain: false,
  phase: 'keyword',
  scores: {},
};
const assistant = {
  mode: 'extractive',
  route: () => decision,
  agents: () => ({ agents: [], total: 5 }),
  ask: () => Promise.reject(new Error('This server only routes.')),
  askStream: () => {
    throw new Error('This server only routes.');
  },
};
const store = {
  db: { engine: 'pglite' },
  ping: async () => true,
};
const running = await startServer(
  { assistant, store, modeDescription: 'routing left out' },
  { server: { port: 0, host: '127.0.0.1', rateLimitPerMinute: 0 }, handleSignals: false },
);
process.stdout.write(`${running.url}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
