import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CohortConfig } from '../config/index.js';
import { isCohortError } from '../errors/index.js';
import { createStore, openPgliteDb, type Store } from '../store/index.js';
import { startFixtureServer, type FixtureServer } from '../test/fixture-server.js';
import { createResearchDependencies } from './create-research-dependencies.js';
import {
  chunk,
  fakeRetriever,
  scriptedResearchModel,
  testSettings,
} from '../test/research-fakes.js';
import type { ResearchEvent } from './research-events.js';
import { runResearch, streamResearch } from './run-research.js';

const atom = readFileSync(
  new URL('../tools/fixtures/arxiv-search.atom.xml', import.meta.url),
  'utf8',
);
const PAGE = (name: string) =>
  `<html><head><title>${name}</title></head><body><main><h1>${name}</h1><p>Page ${name} explains that humanoid robots balance with ankle and hip strategies and careful foot placement.</p></main></body></html>`;
const LONG =
  'The zero moment point is the point on the ground where the net moment of gravity and inertia has no horizontal component. ' +
  'A humanoid robot stays balanced while the zero moment point remains inside its support polygon. ' +
  'Controllers move the centre of mass so the zero moment point never reaches the edge of the foot.';

describe('runResearch end to end', () => {
  let store: Store;
  let server: FixtureServer;
  beforeAll(async () => {
    store = await createStore(await openPgliteDb('memory://'));
    server = await startFixtureServer((request, url, body) => {
      if (url.pathname === '/search') {
        const topic = (JSON.parse(body) as { query: string }).query.includes('walk')
          ? 'walking'
          : 'balance';
        const results = ['shared', topic].map((name) => ({
          title: `Page ${name}`,
          url: `${server.url}/page/${name}`,
          content: `Snippet of ${name} about humanoid balance and walking robots.`,
          score: 0.9,
        }));
        return { body: JSON.stringify({ query: 'q', results }) };
      }
      if (url.pathname === '/api/query') return { body: atom, type: 'application/atom+xml' };
      if (url.pathname.startsWith('/page/'))
        return { body: PAGE(url.pathname.slice(6)), type: 'text/html' };
      return { status: 404, body: request.url ?? '' };
    });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  const config = () =>
    CohortConfig.parse({
      tools: {
        tavilyApiKey: 'tv-key',
        tavilyBaseUrl: server.url,
        arxivBaseUrl: `${server.url}/api/query`,
        allowPrivateNetwork: true,
      },
      research: { concurrency: 4 },
    });

  it('plans with the lead model, fans out, never fetches a source twice, and writes a cited report', async () => {
    const lead = scriptedResearchModel(() =>
      JSON.stringify({
        tasks: [
          { description: 'How do humanoid robots keep balance?' },
          { description: 'How do humanoid robots walk?' },
        ],
      }),
    );
    const analysis = scriptedResearchModel((prompt) => {
      const numbers = [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
      return JSON.stringify({
        summary: `Found ${numbers.length} sources${numbers.map((n) => ` [${n}]`).join('')}.`,
        citations: numbers.map((index) => ({ index })),
        reasoning: 'Used what was given.',
      });
    });
    const dependencies = createResearchDependencies(config(), {
      store,
      retriever: fakeRetriever(() => []),
    });
    const events: ResearchEvent[] = [];
    const result = await runResearch('How do humanoid robots balance and walk?', {
      ...dependencies,
      model: analysis,
      leadModel: lead,
      sandbox: undefined,
      onEvent: (event) => events.push(event),
    });

    expect(result.tasks.map((t) => t.id)).toEqual(['task-1', 'task-2']);
    expect(result.findings.map((f) => [f.taskId, f.mode, f.status])).toEqual([
      ['task-1', 'model', 'done'],
      ['task-2', 'model', 'done'],
    ]);
    // Each page and each paper belongs to exactly one subagent: 2 web pages + 2 papers in all.
    const pageHits = server.hits.filter((hit) => hit.startsWith('GET /page/'));
    expect(new Set(pageHits).size).toBe(pageHits.length);
    const cited = result.findings.flatMap((f) => f.citations.map((c) => c.identifier));
    expect(new Set(cited).size).toBe(cited.length);
    // shared page, one topic page per task, two papers: five sources, each claimed once.
    expect(cited).toHaveLength(5);
    expect(cited.filter((id) => id.endsWith('/page/shared'))).toHaveLength(1);
    expect(result.sources.map((s) => s.index)).toEqual([1, 2, 3, 4, 5]);
    expect(result.report).toMatch(/^# Research: How do humanoid robots balance and walk\?/);
    expect(result.report).toMatch(/## Sources\n\n\[1\] Page /);
    expect(result.report).toContain(
      'Whole-Body Balance Control for Humanoid Robots with Model Predictive Control — http://arxiv.org/abs/2401.01234v2 (paper)',
    );
    // Local [n] of the second finding are renumbered after the first finding's sources.
    expect(result.findings.map((f) => f.summary).join(' ')).toMatch(/\[5\]\.$/);
    // The top page of each subagent was read in full through web_fetch.
    expect(pageHits.length).toBe(2);

    expect(events[0]?.type).toBe('run_started');
    expect(events.at(-1)?.type).toBe('report');
    const nodes = events
      .filter((e) => e.type === 'node' && e.status === 'finished' && e.taskId === 'task-1')
      .map((e) => (e.type === 'node' ? e.node : ''));
    expect(nodes).toEqual([
      'retrieveNode',
      'routeSourceNecessity',
      'webSearchNode',
      'analysisNode',
    ]);
    const finished = events.find((e) => e.type === 'task_finished');
    expect(finished?.type === 'task_finished' && finished.tokens.total).toBeGreaterThan(0);

    expect(await store.runs.get(result.runId)).toMatchObject({ kind: 'research', status: 'done' });
    expect((await store.runs.tasks(result.runId)).map((t) => t.status)).toEqual(['done', 'done']);
  });

  it('without a model, splits the question into clauses and reports extractive findings', async () => {
    const retriever = fakeRetriever((query) =>
      query.includes('zero moment') ? [chunk('zmp-1', LONG)] : [],
    );
    const result = await runResearch('What is the zero moment point; how do robots fall safely?', {
      settings: testSettings(),
      retriever,
      runs: store.runs,
    });
    expect(result.tasks.map((t) => t.description)).toEqual([
      'What is the zero moment point',
      'how do robots fall safely',
    ]);
    expect(result.mode).toBe('extractive');
    expect(result.report).toContain('No analysis model was used');
    expect(result.findings[0]?.summary).toContain('[1]');
    expect(result.findings[1]).toMatchObject({ summary: 'No sources were found for this task.' });
  });

  it('lets the other subagents finish when one hits its timeout', async () => {
    const retriever = fakeRetriever((query) => [chunk(`${query.length}-1`, LONG)]);
    const slowFor = (query: string) => query.includes('slow');
    const result = await runResearch('Explain the zero moment point; explain something slow', {
      settings: testSettings({ timeoutSubagent: 0.3 }),
      retriever: {
        retrieve: async (query, options) => {
          if (slowFor(query)) await new Promise((resolve) => setTimeout(resolve, 5000));
          return retriever.retrieve(query, options);
        },
      },
    });
    expect(result.findings.map((f) => f.status)).toEqual(['done', 'timeout']);
    expect(result.findings[1]?.reason).toBe('subagent task-2 timed out after 300 ms');
    expect(result.report).toContain('This task ended early (timeout)');
  });

  it('records a subagent that writes a forbidden field as failed, and the run carries on', async () => {
    const result = await runResearch('Explain the zero moment point; explain the support polygon', {
      settings: testSettings(),
      retriever: fakeRetriever(() => [chunk('zmp-1', LONG)]),
      subagentRunner: async (input) => ({
        subagentFindings: [],
        visitedSources: [],
        allExtractedCitations: [],
        ...(input.subagentTasks[0].id === 'task-2' ? { tasks: [] } : {}),
      }),
    });
    expect(result.findings.map((f) => [f.taskId, f.status])).toEqual([['task-2', 'failed']]);
    expect(result.findings[0]?.reason).toContain('may not write: tasks');
  });

  it('resumes an interrupted run without redoing finished tasks', async () => {
    const controller = new AbortController();
    const hang = (signal?: AbortSignal) =>
      new Promise<never>((_resolve, reject) =>
        signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    const first = fakeRetriever(() => [chunk('zmp-1', LONG)]);
    const crashed = await runResearch(
      'Explain the zero moment point; explain the support polygon',
      {
        settings: testSettings({ concurrency: 2 }),
        runs: store.runs,
        newId: () => 'run-crash',
        signal: controller.signal,
        retriever: {
          retrieve: (query, options) =>
            query.includes('support polygon')
              ? hang(options?.signal)
              : first.retrieve(query, options),
        },
        onEvent: (event) => {
          if (event.type === 'task_finished' && event.taskId === 'task-1') controller.abort();
        },
      },
    ).catch((error: unknown) => error);
    expect(isCohortError(crashed, 'aborted')).toBe(true);
    expect((crashed as Error).message).toContain('--resume run-crash');
    expect((await store.runs.get('run-crash'))?.status).toBe('interrupted');
    expect((await store.runs.tasks('run-crash')).map((t) => t.taskId)).toEqual(['task-1']);

    const second = fakeRetriever(() => [chunk('polygon-1', LONG)]);
    const events: ResearchEvent[] = [];
    const result = await runResearch('', {
      settings: testSettings(),
      runs: store.runs,
      resume: 'run-crash',
      retriever: second,
      onEvent: (event) => events.push(event),
    });
    expect(second.queries).toEqual(['explain the support polygon']);
    expect(events[0]).toMatchObject({ type: 'run_started', skippedTaskIds: ['task-1'] });
    expect(result.findings.map((f) => [f.taskId, f.status])).toEqual([
      ['task-1', 'done'],
      ['task-2', 'done'],
    ]);
    expect(result.findings[0]?.citations[0]?.identifier).toBe('zmp-1');
    expect(result.findings[1]?.citations[0]?.identifier).toBe('polygon-1');
    expect((await store.runs.get('run-crash'))?.status).toBe('done');

    const again = await runResearch('', {
      settings: testSettings(),
      runs: store.runs,
      resume: 'run-crash',
      retriever: second,
    });
    expect(again.report).toBe(result.report);
    expect(second.queries).toHaveLength(1);
  });

  /**
   * Starts a two-task run under `id` in `store` whose retrieval waits until `release` is called,
   * and gives it 50 ms to be under way.
   */
  async function startHeldRun(id: string) {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = fakeRetriever(() => [chunk('zmp-1', LONG)]);
    const first = runResearch('Explain the zero moment point; explain the support polygon', {
      settings: testSettings({ concurrency: 2 }),
      runs: store.runs,
      newId: () => id,
      retriever: {
        retrieve: async (query, options) => {
          await held;
          return slow.retrieve(query, options);
        },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { first, slow, release };
  }

  it('refuses to resume a run while it is running, and resumes it once it stopped', async () => {
    // A second resume (a client retrying, two tabs) ran the same pending tasks a second time
    // beside the first: every model call twice, and the run's report was whichever ended last.
    const { first, slow, release } = await startHeldRun('run-busy');
    const refused = await runResearch('', {
      settings: testSettings(),
      runs: store.runs,
      resume: 'run-busy',
      retriever: slow,
    }).catch((error: unknown) => error);
    expect(isCohortError(refused, 'conflict')).toBe(true);
    expect((refused as Error).message).toMatch(/run-busy.*is running now.*wait for its report/);
    release();
    const done = await first;
    expect(slow.queries).toHaveLength(2);
    // Once it stopped, the same id resumes (here: its stored report).
    const again = await runResearch('', {
      settings: testSettings(),
      runs: store.runs,
      resume: 'run-busy',
    });
    expect(again.report).toBe(done.report);
  });

  it('refuses to resume a run another process sharing the database runs, until it is done', async () => {
    // Two `cohort serve` replicas on one PostgreSQL (here: a second store over the same engine):
    // the in-process check did not see the other's run, so both ran its tasks and the stored
    // report was whichever ended last.
    const other = await createStore(store.db);
    const { first, slow, release } = await startHeldRun('run-elsewhere');
    const refused = await runResearch('', {
      settings: testSettings(),
      runs: other.runs,
      resume: 'run-elsewhere',
      retriever: slow,
    }).catch((error: unknown) => error);
    expect(isCohortError(refused, 'conflict')).toBe(true);
    expect((refused as Error).message).toMatch(
      /run-elsewhere is running now, in this or another cohort process.*claim lapses at \d{4}-\d\d-\d\dT[\d:]+Z.*resume it after that/,
    );
    release();
    const done = await first;
    expect(slow.queries).toHaveLength(2);
    const again = await runResearch('', {
      settings: testSettings(),
      runs: other.runs,
      resume: 'run-elsewhere',
    });
    expect(again.report).toBe(done.report);
    expect(slow.queries).toHaveLength(2);
  });

  it('says what is wrong with an unknown run id', async () => {
    const error = await runResearch('', {
      settings: testSettings(),
      runs: store.runs,
      resume: 'nope',
    }).catch((e: unknown) => e);
    expect(isCohortError(error, 'not_found')).toBe(true);
  });

  it('streams the same events, ending with the report', async () => {
    const types: string[] = [];
    for await (const event of streamResearch('Explain the zero moment point', {
      settings: testSettings(),
      retriever: fakeRetriever(() => [chunk('zmp-1', LONG)]),
    })) {
      types.push(event.type);
    }
    expect(types[0]).toBe('run_started');
    expect(types.at(-1)).toBe('report');
    expect(types.filter((t) => t === 'task_finished')).toHaveLength(1);
  });
});
