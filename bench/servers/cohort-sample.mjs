// cohort's server over the sample book in an in-memory store (extractive mode, no model), built
// from the compiled library as `cohort serve` runs it. Prints its URL on the first line of stdout.
import { openAssistant } from '../../dist/assistant/index.js';
import { loadConfig } from '../../dist/config/index.js';
import { startServer, useServerHeapSettings } from '../../dist/server/index.js';

// V8's heap settings `cohort serve` sets for its own process (src/server/heap-settings.ts), so the
// memory measured here is what `cohort serve` on `memory://` holds: without them the old
// generation waited for about twice its live data before a full collection (8–10 MB more at the
// peak under `/chat`).
useServerHeapSettings();

const config = loadConfig({
  env: { COHORT_DATA_DIR: 'memory://', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  cwd: process.cwd(),
});
const opened = await openAssistant({ config });
const running = await startServer(opened, {
  server: { port: 0, host: '127.0.0.1', rateLimitPerMinute: 0 },
  handleSignals: false,
  close: opened.close,
});
process.stdout.write(`${running.url}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
