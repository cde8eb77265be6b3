import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CohortConfig } from '../config/index.js';
import type { ResearchDependencies } from '../research/index.js';
import type { RetrievedChunk } from '../schema/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { createScriptedModel, RECORDED } from '../test/scripted-model.js';
import { createTestAssistant, testWebAssets } from '../test/test-assistant.js';
import { mcpToolCall } from '../test/mcp-http-call.js';
import { createServer } from './create-server.js';

// Runs keep sessions' rule when several API keys are in use: the key that started a run (a coding
// or research run, over HTTP or MCP) owns it; another key gets the 404 of an unknown id, and the
// key that started it goes on as before.

const workspace = mkdtempSync(join(tmpdir(), 'cohort-run-access-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

let store: Store;
beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

const PASSAGE: RetrievedChunk = {
  id: 'topics-1',
  text: 'A topic is a named channel over which nodes publish and subscribe to messages.',
  source: 'docs/ros2/topics.md',
  title: 'Topics',
  section: 'Communication',
  score: 0.9,
  metadata: {},
};

/** Asks to write `file` until a tool result is in the prompt, then answers. */
const writingModel = (file: string) =>
  createScriptedModel((_index, options) => {
    const last = options.prompt.at(-1);
    if (last?.role === 'tool') return { text: 'done' };
    return { toolCalls: [{ toolName: 'write', input: { path: file, content: 'written' } }] };
  }, RECORDED);

function serve(apiKey: string | undefined, model = writingModel('out.txt')) {
  const research: ResearchDependencies = {
    settings: CohortConfig.parse({}).research,
    retriever: { retrieve: async () => [PASSAGE] },
    paperSearches: [],
    runs: store.runs,
  };
  const app = createServer(
    {
      assistant: createTestAssistant(store, { traces: store.runs }),
      store,
      modeDescription: 'test',
      config: CohortConfig.parse({ model: { maxSteps: 4 } }),
    },
    {
      webAssets: testWebAssets,
      research,
      coding: { workspace, model: () => model },
      ...(apiKey ? { server: { apiKey } } : {}),
    },
  );
  const request = (key: string | undefined, method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const mcp = (key: string, name: string, args: Record<string, unknown>) =>
    mcpToolCall(app, key, name, args);
  return { request, mcp };
}

type ErrorJson = { error: { code: string; message: string; field: string | null } };

/** The error of `res` with `id` written as `<id>`, to compare with an unknown id's. */
async function refusal(res: Response, id: string) {
  const body = (await res.json()) as ErrorJson;
  return { status: res.status, ...body.error, message: body.error.message.replaceAll(id, '<id>') };
}

const UNKNOWN = '0d1b1c9e-0000-4000-8000-000000000000';

describe('runs belong to the API key that started them', () => {
  it('another key cannot answer (nor stream an answer to) a paused coding run: 404 as for an unknown run', async () => {
    const { request } = serve('key-a, key-b', writingModel('owned.txt'));
    const started = await request('key-a', 'POST', '/code', { request: 'write owned.txt' });
    const run = (await started.json()) as { run_id: string; status: string };
    expect(run.status).toBe('awaiting_approval');

    const unknown = await refusal(
      await request('key-b', 'POST', `/code/runs/${UNKNOWN}/approval`, { decision: 'yes' }),
      UNKNOWN,
    );
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    for (const path of ['approval', 'approval/stream']) {
      const res = await request('key-b', 'POST', `/code/runs/${run.run_id}/${path}`, {
        decision: 'yes',
      });
      expect(await refusal(res, run.run_id)).toEqual(unknown);
    }
    expect(existsSync(join(workspace, 'owned.txt'))).toBe(false);

    const answered = await request('key-a', 'POST', `/code/runs/${run.run_id}/approval`, {
      decision: 'yes',
    });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { status: string }).status).toBe('completed');
    expect(existsSync(join(workspace, 'owned.txt'))).toBe(true);

    // Its trace too.
    expect(
      await refusal(await request('key-b', 'GET', `/runs/${run.run_id}/trace`), run.run_id),
    ).toEqual(await refusal(await request('key-b', 'GET', `/runs/${UNKNOWN}/trace`), UNKNOWN));
    expect((await request('key-a', 'GET', `/runs/${run.run_id}/trace`)).status).toBe(200);
  });

  it("another key cannot continue a key's coding conversation", async () => {
    const { request } = serve('key-a, key-b', writingModel('talk.txt'));
    const session = 'conversation-of-a';
    const first = await request('key-a', 'POST', '/code', { request: 'hi', session_id: session });
    expect(first.status).toBe(200);
    for (const path of ['/code', '/code/stream']) {
      const res = await request('key-b', 'POST', path, { request: 'hi', session_id: session });
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorJson).error).toMatchObject({
        code: 'not_found',
        field: 'session_id',
      });
    }
    const again = await request('key-a', 'POST', '/code', { request: 'hi', session_id: session });
    expect(again.status).toBe(200);
  });

  it("another key can neither resume nor read the trace of a key's research run", async () => {
    const { request } = serve('key-a, key-b');
    const res = await request('key-a', 'POST', '/research', { question: 'What is a topic?' });
    expect(res.status).toBe(200);
    const runId = ((await res.json()) as { run_id: string }).run_id;

    const unknown = await refusal(
      await request('key-b', 'POST', '/research', { resume: UNKNOWN }),
      UNKNOWN,
    );
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    for (const path of ['/research', '/research/stream'])
      expect(await refusal(await request('key-b', 'POST', path, { resume: runId }), runId)).toEqual(
        unknown,
      );
    expect((await request('key-b', 'GET', `/runs/${runId}/trace`)).status).toBe(404);

    const resumed = await request('key-a', 'POST', '/research', { resume: runId });
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as { run_id: string }).run_id).toBe(runId);
    expect((await request('key-a', 'GET', `/runs/${runId}/trace`)).status).toBe(200);
  });

  it('a research run started over MCP is the calling key’s', async () => {
    const { request, mcp } = serve('key-a, key-b');
    const started = await mcp('key-a', 'research', { question: 'What is a topic?' });
    expect(started.isError).toBeFalsy();
    const runId = started.structuredContent?.run_id ?? '';
    expect(runId).not.toBe('');

    const intrude = await mcp('key-b', 'research', { resume: runId });
    expect(intrude.isError).toBe(true);
    expect(intrude.content[0]?.text).toBe(
      `No research run "${runId}". Check the id printed when the run started.`,
    );
    expect((await request('key-b', 'POST', '/research', { resume: runId })).status).toBe(404);
    expect((await request('key-b', 'GET', `/runs/${runId}/trace`)).status).toBe(404);

    expect((await mcp('key-a', 'research', { resume: runId })).isError).toBeFalsy();
    expect((await request('key-a', 'POST', '/research', { resume: runId })).status).toBe(200);
  });

  it("the trace of an answer in a session is the session owner's", async () => {
    const { request } = serve('key-a, key-b');
    const sessionId = '7f0c2b1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const res = await request('key-a', 'POST', '/chat', {
      query: 'What is a topic?',
      session_id: sessionId,
    });
    const queryId = ((await res.json()) as { query_id: string }).query_id;
    expect((await request('key-b', 'GET', `/runs/${queryId}/trace`)).status).toBe(404);
    expect((await request('key-a', 'GET', `/runs/${queryId}/trace`)).status).toBe(200);
  });

  it("the trace of an anonymous answer is the key's that asked, over /chat, /chat/stream, /v1 and MCP", async () => {
    // An answer without a session kept no owner: another key that learnt its query_id (from a
    // shared log, a screenshot) read the question, the answer's passages and the routing.
    const { request, mcp } = serve('key-a, key-b');
    const queryIds: string[] = [];
    const chat = await request('key-a', 'POST', '/chat', { query: 'What is a topic?' });
    queryIds.push(((await chat.json()) as { query_id: string }).query_id);
    const stream = await (
      await request('key-a', 'POST', '/chat/stream', { query: 'What is a topic?' })
    ).text();
    queryIds.push(/"query_id":"([^"]+)"/.exec(stream)?.[1] ?? 'missing');
    const tool = (await mcp('key-a', 'ask', { query: 'What is a topic?' })) as {
      structuredContent?: { query_id?: string };
    };
    queryIds.push(tool.structuredContent?.query_id ?? 'missing');
    const v1 = await request('key-a', 'POST', '/v1/chat/completions', {
      model: 'cohort',
      messages: [{ role: 'user', content: 'What is a topic?' }],
    });
    expect(v1.status).toBe(200);
    // A completion's id is its answer's query id.
    queryIds.push(((await v1.json()) as { id: string }).id.replace(/^chatcmpl-/, ''));
    for (const queryId of queryIds) {
      expect(queryId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(
        await refusal(await request('key-b', 'GET', `/runs/${queryId}/trace`), queryId),
        queryId,
      ).toEqual(await refusal(await request('key-b', 'GET', `/runs/${UNKNOWN}/trace`), UNKNOWN));
      expect((await request('key-a', 'GET', `/runs/${queryId}/trace`)).status, queryId).toBe(200);
    }
  });

  it('with one key, or none, every run stays usable as before', async () => {
    for (const key of ['only-key', undefined]) {
      const { request } = serve(key, writingModel(`single-${key ?? 'none'}.txt`));
      const run = (await (await request(key, 'POST', '/code', { request: 'write' })).json()) as {
        run_id: string;
      };
      const answered = await request(key, 'POST', `/code/runs/${run.run_id}/approval`, {
        decision: 'yes',
      });
      expect(answered.status).toBe(200);
      const research = await request(key, 'POST', '/research', { question: 'What is a topic?' });
      const runId = ((await research.json()) as { run_id: string }).run_id;
      expect((await request(key, 'POST', '/research', { resume: runId })).status).toBe(200);
      expect((await request(key, 'GET', `/runs/${runId}/trace`)).status).toBe(200);
    }
  });
});
