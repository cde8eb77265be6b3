import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAssistant, type OpenedAssistant } from '../../assistant/index.js';
import { loadConfig } from '../../config/index.js';
import { createResearchDependencies } from '../../research/index.js';
import { createServer } from '../create-server.js';
import { testWebAssets } from '../../test/test-assistant.js';

// The trace view's data: every answer and research run records its spans in the store, and
// GET /runs/:id/trace returns them with no collector configured.

interface TraceBody {
  run_id: string;
  kind: string;
  status: string;
  duration_ms: number;
  routing: { agent: string; phase: string; confidence: number } | null;
  spans: { span_id: string; parent_id: string | null; name: string; duration_ms: number }[];
}

describe('GET /runs/:id/trace', () => {
  let opened: OpenedAssistant;
  let app: ReturnType<typeof createServer>;

  beforeAll(async () => {
    opened = await openAssistant({
      config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
    });
    const real = createResearchDependencies(opened.config, { store: opened.store });
    app = createServer(opened, {
      webAssets: testWebAssets,
      research: { ...real, webSearch: undefined, paperSearches: [] },
    });
  }, 120_000);
  afterAll(() => opened?.close());

  const post = (path: string, body: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("returns an answer's spans, nested, with its routing decision", async () => {
    const answer = (await (await post('/chat', { query: 'What is a ROS 2 topic?' })).json()) as {
      query_id: string;
      agent_used: string;
    };
    const response = await app.request(`/runs/${answer.query_id}/trace`);
    expect(response.status).toBe(200);
    const trace = (await response.json()) as TraceBody;
    expect(trace).toMatchObject({ run_id: answer.query_id, kind: 'answer', status: 'done' });
    expect(trace.routing).toMatchObject({ agent: answer.agent_used });
    const root = trace.spans.find((span) => span.name === 'cohort.ask');
    expect(root?.parent_id).toBeNull();
    const agent = trace.spans.find((span) => span.name.startsWith('invoke_agent'));
    expect(agent?.parent_id).toBe(root?.span_id);
    const retrieval = trace.spans.find((span) => span.name === 'cohort.retrieval');
    expect(retrieval?.parent_id).toBe(agent?.span_id);
    expect(trace.duration_ms).toBeGreaterThan(0);
    // The wire form: snake_case fields, attribute names as OpenTelemetry spells them.
    expect(Object.keys(trace).sort()).toEqual([
      'duration_ms',
      'input_tokens',
      'kind',
      'output_tokens',
      'routing',
      'run_id',
      'spans',
      'status',
    ]);
    const routing = trace.spans.find((span) => span.name === 'cohort.routing');
    expect(Object.keys(routing ?? {}).sort()).toEqual([
      'attributes',
      'duration_ms',
      'error',
      'name',
      'parent_id',
      'span_id',
      'start_ms',
      'status',
    ]);
    expect(routing).toMatchObject({
      error: null,
      attributes: { 'cohort.routing.agent': answer.agent_used },
    });
  });

  it("returns a research run's spans, one per task under the run", async () => {
    const run = (await (
      await post('/research', {
        question: 'What is a ROS 2 topic and which GPU does the workstation need?',
        tasks: 2,
      })
    ).json()) as { run_id: string };
    const trace = (await (await app.request(`/runs/${run.run_id}/trace`)).json()) as TraceBody;
    expect(trace).toMatchObject({ kind: 'research', status: 'done' });
    const root = trace.spans.find((span) => span.name === 'cohort.research');
    const tasks = trace.spans.filter((span) => span.name.startsWith('research.task'));
    expect(tasks).toHaveLength(2);
    for (const task of tasks) expect(task.parent_id).toBe(root?.span_id);
  });

  it('says which id to use when there is no such trace', async () => {
    const response = await app.request('/runs/no-such-run/trace');
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toContain('query_id of an answer or the run_id of a research run');
  });

  it('answers 400 naming the id for a run id the database cannot hold (a NUL), not 500', async () => {
    for (const path of ['/runs/%00/trace', '/runs/a%00b/trace']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; field: string } };
      expect(error).toMatchObject({ code: 'bad_request', field: 'id' });
    }
  });
});
