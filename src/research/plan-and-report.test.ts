import { describe, expect, it } from 'vitest';
import { scriptedResearchModel } from '../test/research-fakes.js';
import { planTasks, splitQuestion } from './plan-tasks.js';
import { mergeFindings, mergeVisitedSources } from './reducers.js';
import { createVisitedRegistry } from './visited-registry.js';
import { writeReport } from './write-report.js';

describe('splitQuestion', () => {
  it('splits on ; ? and on " and " or commas between clauses', () => {
    expect(splitQuestion('What is ROS 2 and how does Gazebo simulate sensors?', 5)).toEqual([
      'What is ROS 2',
      'how does Gazebo simulate sensors',
    ]);
    expect(
      splitQuestion(
        'Define the ZMP; list balance strategies? Compare MPC, RL and hybrid control',
        5,
      ),
    ).toEqual(['Define the ZMP', 'list balance strategies', 'Compare MPC, RL and hybrid control']);
    expect(
      splitQuestion('How do legged robots walk, and why do they fall over so often', 5),
    ).toEqual(['How do legged robots walk', 'why do they fall over so often']);
  });

  it('folds the tail into the last task beyond the limit', () => {
    expect(splitQuestion('a b c; d e f; g h i; j k l', 2)).toEqual([
      'a b c',
      'd e f; g h i; j k l',
    ]);
  });
});

describe('planTasks', () => {
  const base = {
    maxTasks: 3,
    timeoutMs: 1000,
    maxRetries: 1,
    signal: new AbortController().signal,
  };

  it('asks the lead model for tasks, deduplicated and capped', async () => {
    const model = scriptedResearchModel(() =>
      JSON.stringify({
        tasks: ['A task', 'A task', 'B task', 'C task', 'D task'].map((description) => ({
          description,
        })),
      }),
    );
    const plan = await planTasks('q', { ...base, model });
    expect(plan.planner).toBe('model');
    expect(plan.tasks).toEqual([
      { id: 'task-1', description: 'A task' },
      { id: 'task-2', description: 'B task' },
      { id: 'task-3', description: 'C task' },
    ]);
  });

  it('treats tasks that differ only in case or spacing as one', async () => {
    const model = scriptedResearchModel(() =>
      JSON.stringify({
        tasks: ['ROS 2 topics', 'ros 2  topics', ' ROS 2 Topics', 'Gazebo sensors'].map(
          (description) => ({ description }),
        ),
      }),
    );
    const plan = await planTasks('q', { ...base, model });
    expect(plan.tasks.map((t) => t.description)).toEqual(['ROS 2 topics', 'Gazebo sensors']);
  });

  it('refuses a plan whose task is longer than a question may be, and splits the question instead', async () => {
    const model = scriptedResearchModel(() =>
      JSON.stringify({ tasks: [{ description: `Research ${'x'.repeat(100_000)}` }] }),
    );
    const plan = await planTasks('What is a ZMP; why do robots fall', { ...base, model });
    expect(plan).toMatchObject({
      planner: 'clauses',
      reason: expect.stringMatching(/lead model failed.*2000 characters/s),
    });
    expect(plan.tasks.map((t) => t.description)).toEqual(['What is a ZMP', 'why do robots fall']);
  });

  it('falls back to clauses when the lead model fails', async () => {
    const plan = await planTasks('What is a ZMP; why do robots fall', {
      ...base,
      model: scriptedResearchModel(() => 'nope'),
    });
    expect(plan).toMatchObject({
      planner: 'clauses',
      reason: expect.stringContaining('lead model failed'),
    });
    expect(plan.tasks.map((t) => t.description)).toEqual(['What is a ZMP', 'why do robots fall']);
  });
});

describe('writeReport', () => {
  const citation = (index: number, identifier: string) => ({
    index,
    identifier,
    sourceType: 'web' as const,
    title: identifier.toUpperCase(),
    url: identifier,
  });
  const finding = (taskId: string, summary: string, citations: ReturnType<typeof citation>[]) => ({
    taskId,
    task: `Task ${taskId}`,
    summary,
    reasoning: '',
    citations,
    mode: 'model' as const,
    status: 'done' as const,
  });

  it('renumbers every finding onto one Sources list, sharing repeated sources', () => {
    const { report, sources, findings } = writeReport(
      'Q?',
      [
        finding('task-1', 'A [1] and B [2].', [
          citation(1, 'https://a.org'),
          citation(2, 'https://b.org'),
        ]),
        finding('task-2', 'B again [1], C [2], ghost [7].', [
          citation(1, 'https://b.org/'),
          citation(2, 'https://c.org'),
        ]),
      ],
      'model',
    );
    expect(findings.map((f) => f.summary)).toEqual([
      'A [1] and B [2].',
      'B again [2], C [3], ghost.',
    ]);
    expect(sources.map((s) => [s.index, s.identifier])).toEqual([
      [1, 'https://a.org'],
      [2, 'https://b.org'],
      [3, 'https://c.org'],
    ]);
    expect(report).toContain('## 2. Task task-2\n\nB again [2], C [3], ghost.');
    expect(report).toContain('## Sources\n\n[1] HTTPS://A.ORG — https://a.org (web)\n[2]');
  });

  it("ends a finding's reason with one full stop, whether or not the reason has its own", () => {
    // 'arXiv is unreachable: fetch failed. Check the network and the base URL.' ended '.._'.
    const reasons = ['web search is not configured', 'arXiv is unreachable. Check the network.'];
    const written = writeReport(
      'Q?',
      reasons.map((reason, i) => ({ ...finding(`task-${i + 1}`, 'Nothing.', []), reason })),
      'model',
    ).report;
    expect(written).toContain('_web search is not configured._');
    expect(written).toContain('_arXiv is unreachable. Check the network._');
    expect(written).not.toContain('.._');
    const failed = { ...finding('task-1', 'None.', []), status: 'failed' as const };
    expect(writeReport('Q?', [{ ...failed, reason: 'it broke.' }], 'model').report).toContain(
      '(failed): it broke._',
    );
  });
});

describe('reducers and the visited registry', () => {
  it('claims a source once, whatever its spelling', () => {
    const registry = createVisitedRegistry();
    expect(registry.claim({ identifier: 'https://www.Example.org/a/', sourceType: 'web' })).toBe(
      true,
    );
    expect(registry.claim({ identifier: 'http://example.org/a#top', sourceType: 'paper' })).toBe(
      false,
    );
    expect(registry.list()).toHaveLength(1);
  });

  it('merges findings by task namespace in task order, and visited sources as a union', () => {
    const f = (taskId: string, summary: string) => ({
      taskId,
      task: '',
      summary,
      reasoning: '',
      citations: [],
      mode: 'extractive' as const,
      status: 'done' as const,
    });
    const merged = mergeFindings(
      [f('task-2', 'old'), f('task-1', 'one')],
      [f('task-2', 'new')],
      ['task-1', 'task-2'],
    );
    expect(merged.map((x) => x.summary)).toEqual(['one', 'new']);
    expect(
      mergeVisitedSources(
        [{ identifier: 'a', sourceType: 'internal' }],
        [
          { identifier: 'a', sourceType: 'internal' },
          { identifier: 'b', sourceType: 'web' },
        ],
      ),
    ).toHaveLength(2);
  });
});
