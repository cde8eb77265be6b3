import { Hono, type Context } from 'hono';
import {
  ownedResearchRun,
  type OpenedResearch,
  type ResearchEvent,
  type ResearchRunOptions,
} from '../../research/index.js';
import { toWire } from '../../schema/index.js';
import type { Store } from '../../store/index.js';
import { eventStreamResponse } from '../event-stream.js';
import { readBody } from '../read-body.js';
import { ResearchBody, researchResponse } from '../research-schemas.js';
import type { ServerEnv } from '../server-env.js';
import { requireRunAccess } from '../session-access.js';

/** What the research routes need: the research agent (opened once, on first use) and the store. */
export interface ResearchRouteParts {
  research: () => Promise<Pick<OpenedResearch, 'run' | 'stream'>>;
  store: Pick<Store, 'ping' | 'owners'>;
}

/**
 * The run a request may use: the caller's API key owns a new run (its id chosen here, the owner
 * recorded before it starts); resuming another key's run is the 404 of an unknown run.
 */
function ownedRun(
  c: Context<ServerEnv>,
  store: Pick<Store, 'owners'>,
  body: ResearchBody,
): Promise<Pick<ResearchRunOptions, 'newId'>> {
  // Without an API key nothing is owned: the research picks a new run's id itself.
  if (!body.resume && !c.get('principal')) return Promise.resolve({});
  return ownedResearchRun(
    (runId, access, refusal) => requireRunAccess(c, store, runId, access, refusal),
    body.resume,
  );
}

/** The run options of one request: its task limit, resumed run and abort signal. */
function runOptions(
  body: ResearchBody,
  signal: AbortSignal,
  owned: Pick<ResearchRunOptions, 'newId'>,
): ResearchRunOptions {
  return {
    ...owned,
    ...(body.tasks ? { maxTasks: body.tasks } : {}),
    ...(body.resume ? { resume: body.resume } : {}),
    signal,
  };
}

/** An event's fields without its `type`, which is the SSE event name. */
function eventData(event: ResearchEvent): Omit<ResearchEvent, 'type'> {
  const { type: _type, ...data } = event;
  return data;
}

/**
 * `POST /research` (one research result) and `POST /research/stream` (SSE: `run_started`, then
 * per subagent `task_started`, `node` and `task_finished`, then `report` and `done` with the
 * result, or `error`). A body `{ question, tasks?, resume? }`; an unknown `resume` id is 404.
 *
 * @example
 * const research = openResearch({ config, knowledgeBase });
 * app.route('/', researchRoutes({ research: () => research, store }));
 */
export function researchRoutes(parts: ResearchRouteParts) {
  const app = new Hono<ServerEnv>();

  app.post('/research', async (c) => {
    const body = await readBody(c, ResearchBody);
    const owned = await ownedRun(c, parts.store, body);
    const research = await parts.research();
    const result = await research.run(
      body.question ?? '',
      runOptions(body, c.req.raw.signal, owned),
    );
    return c.json(toWire(researchResponse(result)));
  });

  app.post('/research/stream', async (c) => {
    const body = await readBody(c, ResearchBody);
    const owned = await ownedRun(c, parts.store, body);
    // The first event (run_started, or report for a finished run) comes after planning and the
    // resume lookup, so a bad question or an unknown run id is still a plain 4xx response.
    const research = await parts.research();
    return eventStreamResponse(c, {
      start: (signal) => research.stream(body.question ?? '', runOptions(body, signal, owned)),
      store: parts.store,
      write: async (event, send) => {
        await send(event.type, eventData(event));
        if (event.type === 'report') await send('done', researchResponse(event.result));
      },
    });
  });

  return app;
}
