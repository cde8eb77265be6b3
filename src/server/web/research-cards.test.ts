import { describe, expect, it } from 'vitest';
import type { WireResearchEvent } from './research-client.js';
import { applyResearchEvent, type ResearchCard } from './research-cards.js';

const started: WireResearchEvent = {
  type: 'run_started',
  run_id: 'r1',
  question: 'What is a topic and how do robots balance?',
  tasks: [
    { id: 'task-1', description: 'What is a topic' },
    { id: 'task-2', description: 'how do robots balance' },
    { id: 'task-3', description: 'earlier work' },
  ],
  skipped_task_ids: ['task-3'],
};

const replay = (events: WireResearchEvent[]) =>
  events.reduce<ResearchCard[]>((cards, event, i) => applyResearchEvent(cards, event, i * 10), []);

describe('applyResearchEvent', () => {
  it('lays out a queued card per task, marking tasks finished by an earlier attempt', () => {
    const cards = replay([started]);
    expect(cards.map((card) => [card.taskId, card.status])).toEqual([
      ['task-1', 'queued'],
      ['task-2', 'queued'],
      ['task-3', 'earlier'],
    ]);
  });

  it('moves each card along its own steps, skipping the web search the gate did not choose', () => {
    const cards = replay([
      started,
      { type: 'task_started', task_id: 'task-1', task: 'What is a topic' },
      { type: 'task_started', task_id: 'task-2', task: 'how do robots balance' },
      { type: 'node', task_id: 'task-1', node: 'retrieveNode', status: 'started' },
      { type: 'node', task_id: 'task-2', node: 'retrieveNode', status: 'started' },
      { type: 'node', task_id: 'task-1', node: 'retrieveNode', status: 'finished', sources: 2 },
      {
        type: 'node',
        task_id: 'task-2',
        node: 'retrieveNode',
        status: 'finished',
        sources: 0,
        reason: 'no relevant internal passage',
      },
      {
        type: 'node',
        task_id: 'task-1',
        node: 'routeSourceNecessity',
        status: 'finished',
        next: 'analysisNode',
      },
      {
        type: 'node',
        task_id: 'task-2',
        node: 'routeSourceNecessity',
        status: 'finished',
        next: 'webSearchNode',
      },
      { type: 'node', task_id: 'task-2', node: 'webSearchNode', status: 'started' },
    ]);
    const [topic, balance] = cards;
    expect(topic).toMatchObject({ status: 'running', node: 'routeSourceNecessity', sources: 2 });
    expect(topic?.steps).toEqual({
      retrieveNode: 'done',
      routeSourceNecessity: 'done',
      webSearchNode: 'skipped',
      analysisNode: 'pending',
    });
    expect(balance).toMatchObject({
      status: 'running',
      node: 'webSearchNode',
      sources: 0,
      reason: 'no relevant internal passage',
      startedAt: 20,
    });
    expect(balance?.steps.webSearchNode).toBe('running');
  });

  it('settles a card with the server’s sources, time, tokens and the finding’s reason', () => {
    const cards = replay([
      started,
      { type: 'task_started', task_id: 'task-2', task: 'how do robots balance' },
      { type: 'node', task_id: 'task-2', node: 'analysisNode', status: 'started' },
      {
        type: 'task_finished',
        task_id: 'task-2',
        status: 'timeout',
        sources: 3,
        duration_ms: 1234,
        tokens: { input: 10, output: 5, total: 15 },
        finding: {
          task_id: 'task-2',
          task: 'how do robots balance',
          summary: '',
          reasoning: '',
          citations: [],
          mode: 'extractive',
          status: 'timeout',
          reason: 'the subagent timed out after 300 s',
        },
      },
    ]);
    expect(cards[1]).toMatchObject({
      status: 'timeout',
      sources: 3,
      durationMs: 1234,
      tokens: 15,
      reason: 'the subagent timed out after 300 s',
    });
    expect(cards[1]?.steps.analysisNode).toBe('done');
    expect(cards[0]?.status).toBe('queued');
  });
});
