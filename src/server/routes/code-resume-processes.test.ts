import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../test/fake-openai-server.js';
import { startServeProcess, type ServeProcess } from '../../test/serve-process.js';

// A paused coding run is state in the store, not in a process: one `cohort serve` process pauses
// it and dies; another, started afterwards on the same PostgreSQL database, answers and finishes it.

const url = process.env.COHORT_TEST_DATABASE_URL;
const workspace = mkdtempSync(join(tmpdir(), 'cohort-code-processes-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

type CodeJson = { run_id: string; status: string; answer: string; pending: unknown[] };
const post = async (base: string, path: string, body: unknown) => {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as CodeJson };
};

describe.skipIf(!url)(
  `a paused run resumes in another OS process${url ? '' : ' (skipped: COHORT_TEST_DATABASE_URL is not set; run scripts/postgres-test-server.sh start)'}`,
  () => {
    it('server process A pauses and is killed; process B answers and finishes the run', async () => {
      const schema = `code_proc_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const separator = url?.includes('?') ? '&' : '?';
      let model: FakeOpenAI | undefined;
      const servers: ServeProcess[] = [];
      try {
        // One scripted model for both processes: the write call (A), then the final text (B).
        model = await startFakeOpenAI({
          chat: [
            {
              kind: 'tool_call',
              name: 'write',
              arguments: JSON.stringify({ path: 'proc.txt', content: 'written by B' }),
            },
            { kind: 'text', text: 'The file is written.' },
          ],
        });
        const env = {
          DATABASE_URL: `${url}${separator}options=-csearch_path%3D${schema}`,
          OPENAI_BASE_URL: model.baseUrl,
          OPENAI_API_KEY: 'sk-test',
          COHORT_MODEL: 'scripted',
          COHORT_LOG_LEVEL: 'warn',
        };
        const a = await startServeProcess(env, workspace);
        servers.push(a);
        const paused = await post(a.url, '/code', { request: 'write proc.txt' });
        expect(paused.status).toBe(200);
        expect(paused.json.status).toBe('awaiting_approval');
        expect(existsSync(join(workspace, 'proc.txt'))).toBe(false);
        await a.kill();

        const b = await startServeProcess(env, workspace);
        servers.push(b);
        expect(b.child.pid).not.toBe(a.child.pid);
        const done = await post(b.url, `/code/runs/${paused.json.run_id}/approval`, {
          decision: 'yes',
        });
        expect(done.status).toBe(200);
        expect(done.json.status).toBe('completed');
        expect(done.json.answer).toContain('The file is written.');
        expect(readFileSync(join(workspace, 'proc.txt'), 'utf8')).toBe('written by B');
        // Answered once: a second answer is refused, by any process.
        const again = await post(b.url, `/code/runs/${paused.json.run_id}/approval`, {
          decision: 'yes',
        });
        expect(again.status).toBe(409);
        expect(model.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
      } finally {
        for (const server of servers) await server.stop();
        await model?.close();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    }, 120_000);
  },
);
