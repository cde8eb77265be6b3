import { createLogger } from '../telemetry/index.js';
import type { ServedAssistant } from '../server/create-server.js';
import type { ServerOptions } from '../server/create-server.js';
import { startServer, type RunningServer } from '../server/start-server.js';
import { testWebAssets } from './test-assistant.js';

/**
 * What the fast-path tests need to compare a started server with the app alone: the server
 * options (the test web page, a logger whose JSON lines are kept), a `serve` that starts one on
 * a free port and remembers it, the lines logged, and `closeAll` for `afterAll`.
 *
 * @example
 * const harness = createServedAppHarness(() => ({ assistant, store, modeDescription: 'test' }));
 * const url = await harness.serve();
 * afterAll(harness.closeAll);
 */
export function createServedAppHarness(served: () => ServedAssistant) {
  const running: RunningServer[] = [];
  const logged: Record<string, unknown>[] = [];
  const options = (extra: Partial<ServerOptions> = {}): ServerOptions => ({
    webAssets: testWebAssets,
    logger: createLogger({
      level: 'info',
      write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>),
    }),
    ...extra,
  });
  return {
    options,
    /** The JSON lines logged so far (emptied by `clearLogged`). */
    logged,
    clearLogged: () => void logged.splice(0),
    async serve(extra: Partial<ServerOptions> = {}): Promise<string> {
      const server = await startServer(served(), {
        ...options(extra),
        server: { port: 0, host: '127.0.0.1', ...extra.server },
        handleSignals: false,
      });
      running.push(server);
      return server.url;
    },
    closeAll: async () => void (await Promise.all(running.map((server) => server.close()))),
  };
}

/** What a client sees of an answer: status, content type, request id and the body. */
interface SeenByClient<Body> {
  status: number;
  type: string | null;
  id: string | null;
  body: Body;
}

/**
 * What a client sees of an answer, the body as text (to compare bytes) or parsed JSON (to read
 * fields).
 */
export async function seenByClient(response: Response): Promise<SeenByClient<string>>;
export async function seenByClient(
  response: Response,
  body: 'json',
): Promise<SeenByClient<unknown>>;
export async function seenByClient(
  response: Response,
  body: 'text' | 'json' = 'text',
): Promise<SeenByClient<unknown>> {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    id: response.headers.get('x-request-id'),
    body: body === 'json' ? ((await response.json()) as unknown) : await response.text(),
  };
}
