import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CohortConfig } from '../../config/index.js';
import type { ResearchDependencies } from '../../research/index.js';
import type { RetrievedChunk, SourceDocument } from '../../schema/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { readSse } from '../../test/test-assistant.js';
import { testServer } from '../../test/test-server.js';
import { errorOf } from '../../test/api-error-of.js';

// The research endpoints over scripted parts: a fake knowledge base that knows about topics, fake
// web and paper searches, no model (extractive findings) and the real run store for resume.

const QUESTION = 'What is a ROS 2 topic and how do humanoid robots keep their balance?';

const TOPIC_PASSAGE: RetrievedChunk = {
  id: 'topics-1',
  text: 'A topic is a named channel over which nodes publish and subscribe to messages. Topics carry sensor data, commands and state between the nodes of a robot, and any number of nodes may publish or subscribe to the same topic at once.',
  source: 'docs/ros2/topics.md',
  title: 'Topics',
  section: 'Communication',
  score: 0.9,
  metadata: {},
};

const source = (identifier: string, sourceType: 'web' | 'paper', content: string) =>
  ({
    identifier,
    sourceType,
    title: `${sourceType} about balance`,
    content,
    url: identifier,
  }) satisfies SourceDocument;

let store: Store;

beforeAll(async () => {
  store = await createStore(await openPgliteDb('memory://'));
});
afterAll(() => store.close());

/** Scripted research parts; `queries` records what the knowledge base was asked. */
function scripted(extra: Partial<ResearchDependencies> = {}) {
  const queries: string[] = [];
  const dependencies: ResearchDependencies = {
    settings: CohortConfig.parse({}).research,
    retriever: {
      retrieve: async (query) => {
        queries.push(query);
        return /topic/i.test(query) ? [TOPIC_PASSAGE] : [];
      },
    },
    webSearch: async () => [
      source(
        'https://example.org/balance',
        'web',
        'Humanoid robots keep their balance by controlling the zero moment point. The controller shifts the centre of mass over the support polygon.',
      ),
    ],
    paperSearches: [
      {
        name: 'arxiv',
        search: async () => [
          source(
            'https://arxiv.org/abs/2401.00001',
            'paper',
            'We present a whole-body controller that keeps humanoid robots in balance under pushes.',
          ),
        ],
      },
    ],
    runs: store.runs,
    ...extra,
  };
  return { dependencies, queries };
}

function serverWith(dependencies: ResearchDependencies) {
  return testServer(store, { research: dependencies });
}

const post = (app: ReturnType<typeof serverWith>, path: string, body: unknown) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

interface WireResearch {
  run_id: string;
  question: string;
  tasks: { id: string; description: string }[];
  findings: { task_id: string; summary: string; citations: { index: number }[] }[];
  sources: { index: number; source_type: string; title: string; url?: string }[];
  report: string;
  mode: string;
}

describe('POST /research', () => {
  it('plans one task per clause, researches each and answers the cited report in snake_case', async () => {
    const { dependencies, queries } = scripted();
    const response = await post(serverWith(dependencies), '/research', { question: QUESTION });
    expect(response.status).toBe(200);
    const body = (await response.json()) as WireResearch;
    expect(body.run_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.question).toBe(QUESTION);
    expect(body.mode).toBe('extractive');
    expect(body.tasks.map((task) => task.id)).toEqual(['task-1', 'task-2']);
    expect(queries).toHaveLength(2);
    expect(body.findings.map((finding) => finding.task_id)).toEqual(['task-1', 'task-2']);
    // The book answers the topic task; the balance task goes to the web and to papers.
    expect(body.sources.map((s) => s.source_type)).toEqual(['internal', 'web', 'paper']);
    expect(body.sources[1]?.url).toBe('https://example.org/balance');
    expect(body.report).toContain(`# Research: ${QUESTION}`);
    expect(body.report).toMatch(/\[1\][\s\S]*\[2\]/);
    expect(body.report).toContain('## Sources');
    expect(await store.runs.get(body.run_id)).toMatchObject({ kind: 'research', status: 'done' });
  });

  it('keeps to the task count it is given', async () => {
    const { dependencies } = scripted();
    const response = await post(serverWith(dependencies), '/research', {
      question: QUESTION,
      tasks: 1,
    });
    const body = (await response.json()) as WireResearch;
    expect(body.tasks).toHaveLength(1);
  });

  it('is 400 for a body that is not JSON or not an object, 415 for a body not sent as JSON', async () => {
    const app = serverWith(scripted().dependencies);
    expect(await errorOf(await post(app, '/research', '{"question": '))).toMatchObject({
      status: 400,
      code: 'malformed_json',
    });
    expect(await errorOf(await post(app, '/research', '[1]'))).toMatchObject({
      status: 400,
      code: 'malformed_json',
    });
    const plain = await app.request('/research', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'question',
    });
    expect(await errorOf(plain)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('is 422 naming the field for a missing or empty question and a task count out of 1..8', async () => {
    const { dependencies, queries } = scripted();
    const app = serverWith(dependencies);
    expect(await errorOf(await post(app, '/research', {}))).toMatchObject({
      status: 422,
      code: 'invalid_input',
      field: 'question',
      message: expect.stringContaining('resume'),
    });
    expect(await errorOf(await post(app, '/research', { question: '   ' }))).toMatchObject({
      status: 422,
      field: 'question',
    });
    for (const tasks of [0, 9, 1.5, '3']) {
      expect(await errorOf(await post(app, '/research', { question: QUESTION, tasks }))).toEqual({
        status: 422,
        code: 'invalid_input',
        field: 'tasks',
        message: 'tasks must be a whole number from 1 to 8',
      });
    }
    expect(await errorOf(await post(app, '/research', { resume: '' }))).toMatchObject({
      status: 422,
      field: 'resume',
    });
    expect(queries).toEqual([]);
  });

  it('is 404 for a run id it does not know, and 422 when there is no store to resume from', async () => {
    const missing = '5d1b1c9e-0000-4000-8000-000000000000';
    expect(
      await errorOf(
        await post(serverWith(scripted().dependencies), '/research', { resume: missing }),
      ),
    ).toMatchObject({ status: 404, code: 'not_found', message: expect.stringContaining(missing) });
    const { runs: _runs, ...memoryOnly } = scripted().dependencies;
    expect(
      await errorOf(await post(serverWith(memoryOnly), '/research', { resume: missing })),
    ).toMatchObject({ status: 422, code: 'invalid_input' });
  });

  it('builds its parts from the served store by default, so stored runs can be resumed', async () => {
    const app = testServer(store);
    // Not "needs the store" (422): the default parts read runs from the served store.
    expect(await errorOf(await post(app, '/research', { resume: 'no-such-run' }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('resumes a saved run: finished tasks are kept, only the others run again', async () => {
    const runId = 'a1b2c3d4-0000-4000-8000-000000000001';
    const tasks = [
      { id: 'task-1', description: 'What is a ROS 2 topic' },
      { id: 'task-2', description: 'how do humanoid robots keep their balance' },
    ];
    await store.runs.create({
      id: runId,
      kind: 'research',
      status: 'interrupted',
      input: { question: QUESTION, tasks },
    });
    await store.runs.saveTask({
      runId,
      taskId: 'task-1',
      status: 'done',
      output: {
        subagentFindings: [
          {
            taskId: 'task-1',
            task: tasks[0]!.description,
            summary: 'A topic is a named channel [1].',
            reasoning: '',
            citations: [
              {
                index: 1,
                identifier: 'topics-1',
                sourceType: 'internal',
                title: 'Topics',
                url: 'docs/ros2/topics.md',
              },
            ],
            mode: 'extractive',
            status: 'done',
          },
        ],
        visitedSources: [{ identifier: 'topics-1', sourceType: 'internal' }],
        allExtractedCitations: [],
      },
    });
    const { dependencies, queries } = scripted();
    const app = serverWith(dependencies);
    const events = await readSse(await post(app, '/research/stream', { resume: runId }));
    expect(events[0]?.event).toBe('run_started');
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      run_id: runId,
      skipped_task_ids: ['task-1'],
    });
    expect(queries).toEqual(['how do humanoid robots keep their balance']);
    const done = JSON.parse(events.at(-1)!.data) as WireResearch;
    expect(events.at(-1)?.event).toBe('done');
    expect(done.run_id).toBe(runId);
    expect(done.findings.map((f) => f.task_id)).toEqual(['task-1', 'task-2']);
    expect(done.report).toContain('A topic is a named channel [1].');

    // A finished run answers its stored result without running anything.
    const again = (await (await post(app, '/research', { resume: runId })).json()) as WireResearch;
    expect(again).toEqual(done);
    expect(queries).toHaveLength(1);
  });
});

describe('POST /research/stream', () => {
  it('streams run_started, per-subagent events running in parallel, report and done', async () => {
    // Each search waits until both subagents have started, so they can only finish in parallel.
    let started = 0;
    let bothStarted: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (bothStarted = resolve));
    const base = scripted().dependencies;
    const dependencies: ResearchDependencies = {
      ...base,
      retriever: {
        retrieve: async (query) => {
          if (++started === 2) bothStarted();
          await gate;
          return base.retriever!.retrieve(query);
        },
      },
    };
    const response = await post(serverWith(dependencies), '/research/stream', {
      question: QUESTION,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(response);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('run_started');
    expect(names.slice(-2)).toEqual(['report', 'done']);
    expect(names.filter((name) => name === 'task_started')).toHaveLength(2);
    expect(names.filter((name) => name === 'task_finished')).toHaveLength(2);
    expect(names.lastIndexOf('task_started')).toBeLessThan(names.indexOf('task_finished'));

    const data = events.map((event) => JSON.parse(event.data) as Record<string, unknown>);
    const nodes = data.filter((_, i) => names[i] === 'node');
    expect(nodes[0]).toMatchObject({ task_id: expect.any(String), node: 'retrieveNode' });
    expect(nodes.map((node) => node.node)).toEqual(
      expect.arrayContaining([
        'retrieveNode',
        'routeSourceNecessity',
        'webSearchNode',
        'analysisNode',
      ]),
    );
    expect(nodes.find((node) => node.node === 'routeSourceNecessity' && node.next)).toBeTruthy();
    const finished = data.find((_, i) => names[i] === 'task_finished');
    expect(finished).toMatchObject({
      status: 'done',
      duration_ms: expect.any(Number),
      tokens: { input: 0, output: 0, total: 0 },
      finding: expect.objectContaining({ mode: 'extractive' }),
    });
    expect(data.some((item) => 'type' in item)).toBe(false);
    const done = data.at(-1) as unknown as WireResearch;
    expect(done.sources).toHaveLength(3);
    expect((data.at(-2)?.result as WireResearch).report).toBe(done.report);
  });

  it('answers bad input and unknown runs as plain JSON errors, before any stream', async () => {
    const app = serverWith(scripted().dependencies);
    expect(await errorOf(await post(app, '/research/stream', { question: '' }))).toMatchObject({
      status: 422,
      field: 'question',
    });
    expect(await errorOf(await post(app, '/research/stream', 'nope'))).toMatchObject({
      status: 400,
    });
    expect(
      await errorOf(await post(app, '/research/stream', { question: QUESTION, tasks: 20 })),
    ).toMatchObject({ status: 422, field: 'tasks' });
    expect(
      await errorOf(await post(app, '/research/stream', { resume: 'no-such-run' })),
    ).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('ends with an error event when the run fails after it started', async () => {
    const base = scripted().dependencies;
    const runs = base.runs!;
    const dependencies: ResearchDependencies = {
      ...base,
      runs: {
        ...runs,
        create: (run) => runs.create(run),
        get: (id) => runs.get(id),
        saveTask: (task) => runs.saveTask(task),
        tasks: (id) => runs.tasks(id),
        update: async (id, patch) => {
          if (patch.status === 'done') throw new Error('disk full');
          return runs.update(id, patch);
        },
      },
    };
    const events = await readSse(
      await post(serverWith(dependencies), '/research/stream', { question: QUESTION }),
    );
    expect(events[0]?.event).toBe('run_started');
    expect(events.map((event) => event.event)).not.toContain('done');
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data)).toEqual({
      error: {
        code: 'internal',
        message: expect.stringContaining('request id'),
        field: null,
      },
    });
  });
});
