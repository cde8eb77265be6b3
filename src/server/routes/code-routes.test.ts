import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCodeSession } from '../../coding/index.js';
import { CohortConfig } from '../../config/index.js';
import { createStore, openPgliteDb, openPostgresDb, type Store } from '../../store/index.js';
import { createScriptedModel, RECORDED, promptText } from '../../test/scripted-model.js';
import { createTestAssistant, readSse, testWebAssets } from '../../test/test-assistant.js';
import { createServer } from '../create-server.js';

const workspace = mkdtempSync(join(tmpdir(), 'cohort-code-routes-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/**
 * A stateless scripted model (so a second server can continue the run): asks to write `file`
 * until a tool result is in the prompt, then answers with what that result said.
 */
const writingModel = (file: string) =>
  createScriptedModel((_index, options) => {
    const last = options.prompt.at(-1);
    if (last?.role === 'tool')
      return { text: `done: ${JSON.stringify(last.content).slice(0, 300)}` };
    return { toolCalls: [{ toolName: 'write', input: { path: file, content: 'written' } }] };
  }, RECORDED);

function server(store: Store, model = writingModel('out.txt')) {
  const app = createServer(
    {
      assistant: createTestAssistant(store),
      store,
      modeDescription: 'test',
      config: CohortConfig.parse({ model: { maxSteps: 4 } }),
    },
    { webAssets: testWebAssets, coding: { workspace, model: () => model } },
  );
  const post = (path: string, body: unknown) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  return { app, post, model };
}

type CodeJson = {
  run_id: string;
  status: string;
  answer: string;
  pending: Array<{ tool_call_id: string; tool: string; reason: string; always: string }>;
};

describe('POST /code without a model configured', async () => {
  const store = await createStore(await openPgliteDb('memory://'));
  afterAll(() => store.close());

  it('answers 503 model_not_configured, not model_unavailable (a model server down)', async () => {
    // Found from outside: a client told `model_unavailable` retries a server that will never
    // answer; the error table's `model_not_configured` says what is really wrong.
    const app = createServer(
      {
        assistant: createTestAssistant(store),
        store,
        modeDescription: 'test',
        config: CohortConfig.parse({}),
      },
      { webAssets: testWebAssets, coding: { workspace } },
    );
    for (const path of ['/code', '/code/stream']) {
      const response = await app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request: 'list the files' }),
      });
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('model_not_configured');
      expect(body.error.message).toContain('needs a model');
    }
  });
});

describe('POST /code (PGlite)', async () => {
  const store = await createStore(await openPgliteDb('memory://'));
  afterAll(() => store.close());

  it('pauses on a write the rules ask about, then yes resumes it and the file is written', async () => {
    const { post } = server(store, writingModel('yes.txt'));
    const started = await post('/code', { request: 'write yes.txt' });
    expect(started.status).toBe(200);
    const run = (await started.json()) as CodeJson;
    expect(run.status).toBe('awaiting_approval');
    expect(run.pending).toEqual([
      expect.objectContaining({
        tool: 'write',
        reason: 'no rule allows this write call',
        always: 'Edit',
      }),
    ]);
    expect(existsSync(join(workspace, 'yes.txt'))).toBe(false);
    const answered = await post(`/code/runs/${run.run_id}/approval`, { decision: 'yes' });
    const done = (await answered.json()) as CodeJson;
    expect(done).toMatchObject({ run_id: run.run_id, status: 'completed', pending: [] });
    expect(done.answer).toContain('"bytes":7');
    expect(readFileSync(join(workspace, 'yes.txt'), 'utf8')).toBe('written');
    // Answered once: a second answer is a conflict, and nothing runs twice.
    const again = await post(`/code/runs/${run.run_id}/approval`, { decision: 'yes' });
    expect(again.status).toBe(409);
  });

  it('says what to do with a run left running by a process that was killed', async () => {
    const { post } = server(store, writingModel('killed.txt'));
    const run = (await (await post('/code', { request: 'write killed.txt' })).json()) as CodeJson;
    // What a server killed (kill -9) after claiming the answer leaves in the store.
    expect(await store.runs.claim(run.run_id, 'awaiting_approval', 'running')).toBe(true);
    const answered = await post(`/code/runs/${run.run_id}/approval`, { decision: 'yes' });
    expect(answered.status).toBe(409);
    expect(await answered.json()).toMatchObject({
      error: {
        code: 'conflict',
        message: expect.stringContaining(
          'If the cohort process running it stopped before it finished, the run cannot go on: send the request again.',
        ) as string,
      },
    });
  });

  it('keeps every turn of a session answered at once', async () => {
    // Each turn loaded the session, ran, and wrote the whole conversation back: of three turns
    // answered 200 at once, the session kept the last one saved.
    const slow = createScriptedModel(() => ({ text: 'noted', delayMs: 50 }), RECORDED);
    const { post } = server(store, slow);
    const session = randomUUID();
    const turns = await Promise.all(
      ['alpha', 'beta', 'gamma'].map((word) =>
        post('/code', { request: `remember ${word}`, session_id: session }),
      ),
    );
    expect(turns.map((turn) => turn.status)).toEqual([200, 200, 200]);
    const kept = (await loadCodeSession(store.runs, session))
      .filter((message) => message.role === 'user')
      .map((message) => message.content);
    expect(kept.sort()).toEqual(['remember alpha', 'remember beta', 'remember gamma']);
  });

  it('no returns a tool error the model reads; always runs it', async () => {
    const declined = server(store, writingModel('no.txt'));
    const run = (await (
      await declined.post('/code', { request: 'write no.txt' })
    ).json()) as CodeJson;
    const done = (await (
      await declined.post(`/code/runs/${run.run_id}/approval`, {
        decision: 'no',
        tool_call_id: run.pending[0]?.tool_call_id,
      })
    ).json()) as CodeJson;
    expect(done.status).toBe('completed');
    expect(done.answer).toContain('The user declined this write call');
    expect(existsSync(join(workspace, 'no.txt'))).toBe(false);
    expect(promptText(declined.model.calls.at(-1))).toContain('The user declined this write call');

    const always = server(store, writingModel('always.txt'));
    const second = (await (
      await always.post('/code', { request: 'write always.txt' })
    ).json()) as CodeJson;
    const finished = (await (
      await always.post(`/code/runs/${second.run_id}/approval`, { decision: 'always' })
    ).json()) as CodeJson;
    expect(finished.status).toBe('completed');
    expect(existsSync(join(workspace, 'always.txt'))).toBe(true);
  });

  it('streams approval_required, and the answer endpoint streams the rest', async () => {
    const { post } = server(store, writingModel('stream.txt'));
    const events = await readSse(await post('/code/stream', { request: 'write stream.txt' }));
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('run_started');
    expect(names).toContain('tool_call');
    expect(names.slice(-2)).toEqual(['approval_required', 'done']);
    const required = JSON.parse(events.at(-2)?.data ?? '{}') as { run_id: string; tool: string };
    expect(required.tool).toBe('write');
    const rest = await readSse(
      await post(`/code/runs/${required.run_id}/approval/stream`, { decision: 'yes' }),
    );
    expect(rest.map((event) => event.event)).toContain('tool_result');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
    expect(existsSync(join(workspace, 'stream.txt'))).toBe(true);
  });

  it('refuses bad input and unknown runs, changing nothing', async () => {
    const { post } = server(store);
    expect((await post('/code', { request: '' })).status).toBe(422);
    expect((await post('/code', { request: 'x', session_id: '../etc' })).status).toBe(422);
    expect((await post(`/code/runs/${randomUUID()}/approval`, { decision: 'yes' })).status).toBe(
      404,
    );
    expect((await post(`/code/runs/${randomUUID()}/approval`, { decision: 'maybe' })).status).toBe(
      422,
    );
  });
});

const url = process.env.COHORT_TEST_DATABASE_URL;
describe.skipIf(!url)('a paused run resumes from another server process (PostgreSQL)', () => {
  it('server A pauses, server B (its own connection) answers and finishes it, A cannot answer again', async () => {
    const schema = `code_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const separator = url?.includes('?') ? '&' : '?';
    const open = async () =>
      createStore(await openPostgresDb(`${url}${separator}options=-csearch_path%3D${schema}`));
    const storeA = await open();
    const storeB = await open();
    try {
      const a = server(storeA, writingModel('pg.txt'));
      const b = server(storeB, writingModel('pg.txt'));
      const run = (await (await a.post('/code', { request: 'write pg.txt' })).json()) as CodeJson;
      expect(run.status).toBe('awaiting_approval');
      const done = (await (
        await b.post(`/code/runs/${run.run_id}/approval`, { decision: 'yes' })
      ).json()) as CodeJson;
      expect(done.status).toBe('completed');
      expect(b.model.calls).toHaveLength(1);
      expect(readFileSync(join(workspace, 'pg.txt'), 'utf8')).toBe('written');
      expect((await a.post(`/code/runs/${run.run_id}/approval`, { decision: 'yes' })).status).toBe(
        409,
      );
    } finally {
      await storeA.close();
      await storeB.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  });
});
