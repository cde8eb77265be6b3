import { describe, expect, it } from 'vitest';
import type { AgentResponse, Citation } from '../schema/index.js';
import { extractiveNotice } from '../agents/index.js';
import { answerBody, mergeResponses } from './merge-responses.js';

const cite = (index: number, source: string, section: string): Citation => ({
  index,
  source,
  title: source,
  section,
  relevanceScore: 0.7,
  chunkId: `${source}#${section}`,
});

const part = (agentName: string, body: string, sources: Citation[]): AgentResponse => ({
  response: body,
  sources,
  agentName,
  metadata: { body, mode: 'extractive' },
});

describe('mergeResponses (extractive multi-domain answers)', () => {
  it('does not repeat a sentence two agents quoted, and cites only what is still quoted', () => {
    const grippers = cite(1, 'grippers.md', 'Suction');
    const payload = cite(2, 'arms.md', 'Payload');
    const merged = mergeResponses([
      part('hardware', '- Suction cups hold flat parts. [1]\n- The arm lifts 3 kg. [2]', [
        grippers,
        payload,
      ]),
      part('module_info', '- Suction cups hold flat parts. [1]', [
        cite(1, 'grippers.md', 'Suction'),
      ]),
      part('capstone', 'Suction cups hold flat parts. [2] The demo picks a box. [1]', [
        cite(1, 'demo.md', 'Pick'),
        cite(2, 'grippers.md', 'Suction'),
      ]),
    ]);
    const body = String(merged.metadata.body);
    expect(body.match(/Suction cups hold flat parts/g)).toHaveLength(1);
    expect(body).not.toContain('**module_info**');
    expect(body).toContain('**capstone**\n\nThe demo picks a box. [3]');
    expect(merged.sources.map((c) => `${c.index} ${c.source}`)).toEqual([
      '1 grippers.md',
      '2 arms.md',
      '3 demo.md',
    ]);
  });

  it("heads each part with its agent's title, never its id", () => {
    const parts = [
      part('module_info', '- Edge platforms cut latency. [1]', [cite(1, 'edge.md', 'Purpose')]),
      part('hardware', '- Jetson Orin: 10W-30W. [1]', [cite(1, 'jetson.md', 'Power')]),
    ];
    const titles: Record<string, string> = { module_info: 'Course modules', hardware: 'Hardware' };
    const body = String(
      mergeResponses(parts, { titleOf: (name) => titles[name] ?? name }).metadata.body,
    );
    expect(body).toContain('**Course modules**\n\n- Edge platforms cut latency. [1]');
    expect(body).toContain('**Hardware**\n\n- Jetson Orin: 10W-30W. [2]');
    // Without titles an id is still read as words: "module info", not "module_info".
    expect(String(mergeResponses(parts).metadata.body)).toContain('**module info**');
  });

  it("drops a list's heading whose items another agent already quoted", () => {
    // A second review: "**Course modules**" then "Joints:" with nothing under it.
    const joints = cite(1, 'urdf.md', 'Joints');
    const merged = mergeResponses([
      part('hardware', 'Joints:\n- Revolute: rotation with limits. [1]', [joints]),
      part(
        'module_info',
        'Joints:\n- Revolute: rotation with limits. [1]\n\nLinks:\n- A link is a rigid body. [2]',
        [cite(1, 'urdf.md', 'Joints'), cite(2, 'urdf.md', 'Links')],
      ),
    ]);
    const body = String(merged.metadata.body);
    expect(body.match(/Joints:/g)).toHaveLength(1);
    expect(body).toContain('Links:\n- A link is a rigid body.');
  });

  it('keeps a single answer as it is', () => {
    const merged = mergeResponses([
      part('glossary', 'A gripper grasps. [1]', [cite(1, 'g.md', 'G')]),
    ]);
    expect(merged.metadata.body).toBe('A gripper grasps. [1]');
    expect(merged.sources).toHaveLength(1);
  });

  it('is the failure itself when every part failed, so it is reported and not kept', () => {
    // A multi-domain question whose agents all stopped at the step cap (or whose model or search
    // was down) was merged into an answer without the failure: saved, and a 200 / exit 0.
    const stopped = (agentName: string): AgentResponse => ({
      response: 'Stopped after 6 model steps without a final answer.',
      sources: [],
      agentName,
      metadata: { mode: 'model', error: 'budget_exceeded' },
    });
    const merged = mergeResponses([stopped('hardware'), stopped('capstone')]);
    expect(merged.metadata.error).toBe('budget_exceeded');
    expect(merged.response).toBe('Stopped after 6 model steps without a final answer.');
    // One part answered: the merge is an answer.
    const answered = mergeResponses([
      stopped('hardware'),
      part('capstone', 'A box. [1]', [cite(1, 'a.md', 'A')]),
    ]);
    expect(answered.metadata.error).toBeUndefined();
  });
});

describe('answerBody', () => {
  it('takes off the extractive line whatever work it names', () => {
    const response: AgentResponse = {
      response: `Topics carry messages. [1]\n\n${extractiveNotice('documentation')}`,
      sources: [],
      agentName: 'book',
      metadata: {},
    };
    expect(answerBody(response).trim()).toBe('Topics carry messages. [1]');
  });
});
