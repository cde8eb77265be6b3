import { describe, expect, it } from 'vitest';
import { CohortConfig } from '../../config/index.js';
import { createRetrieverFromChunks } from '../../retrieval/index.js';
import { AgentContext, type ChunkRecord, type RetrievedChunk } from '../../schema/index.js';
import { createLogger } from '../../telemetry/index.js';
import { testAgent } from '../../test/test-agent.js';
import { createRagSkill } from '../rag-skill.js';
import { createExtractiveRunner } from './extractive-runner.js';
import { finalResponse } from './runner.js';

const passage = (id: string, heading: string, text: string, domain = 'module_info') =>
  ({
    id,
    source: `${id}.md`,
    ord: 0,
    title: 'ROS 2 in practice',
    headingPath: ['ROS 2 in practice', heading],
    domain,
    text,
    hash: id,
    metadata: {},
  }) satisfies ChunkRecord;

const BOOK = [
  passage(
    'lifecycle',
    'Lifecycle nodes',
    'A lifecycle node starts unconfigured, is configured into the inactive state, and processes data only once it is activated.',
  ),
  passage(
    'qos',
    'Quality of Service',
    'QoS policies decide whether a message is delivered reliably.',
  ),
  passage(
    'launch',
    'Launch files',
    'A launch file starts several nodes at once with their parameters.',
  ),
  passage(
    'topics',
    'Topics',
    'Nodes publish messages on topics and other nodes subscribe to them.',
  ),
  passage('gpu', 'Workstations', 'A workstation with an RTX GPU runs the simulator.', 'hardware'),
];

async function ask(query: string) {
  // The configured floor, as the assistant passes it: the default `retrieval.minScore`.
  const { retrieval } = CohortConfig.parse({});
  const rag = createRagSkill(createRetrieverFromChunks(BOOK, { minScore: retrieval.minScore }));
  const context = AgentContext.parse({ sessionId: 'anonymous', query });
  return finalResponse(
    createExtractiveRunner().run(testAgent('book', { fallback: true }), context, {
      rag,
      logger: createLogger({ level: 'silent' }),
      minScore: retrieval.minScore,
      limit: retrieval.limit,
    }),
  );
}

describe('extractive runner: paraphrased questions are answered from the section retrieval found', () => {
  it('answers a paraphrase whose words the book mostly does not use', async () => {
    // Most of its words are not the book's ("sit idle", "crunching", "switch it on"), so the
    // lifecycle section scores 0.16 of what a full match would; with a floor of 0.2 this was
    // "I couldn't find relevant information".
    const response = await ask(
      'Can my program be configured but sit idle, crunching no data until I switch it on?',
    );
    expect(response.sources.map((source) => source.source)).toContain('lifecycle.md');
    expect(response.response).toContain('processes data only once it is activated');
  });

  it('still finds nothing for a question none of whose words the book uses', async () => {
    const response = await ask('Qwxz vbnm plokij?');
    expect(response.sources).toEqual([]);
  });
});

describe('extractive runner: citation numbers and printed scores agree', () => {
  it('numbers the quoted passages by the score the Sources footer prints, not by rank alone', async () => {
    // The ranking can put a passage above one with a higher printed score (it counts query
    // expansions in full, the printed score half-counts them): here rank 1 scores 0.55 and
    // rank 2 scores 0.8.
    const ranked: RetrievedChunk[] = [
      {
        id: 'pub',
        source: 'pub.md',
        title: 'Topics',
        section: 'Publishing',
        text: 'A topic carries messages from a publisher node to its subscribers.',
        score: 0.55,
        domain: 'module_info',
        metadata: {},
      },
      {
        id: 'def',
        source: 'def.md',
        title: 'Topics',
        section: 'Topics explained',
        text: 'Topics let nodes exchange messages without knowing about each other.',
        score: 0.8,
        domain: 'module_info',
        metadata: {},
      },
    ];
    const rag = createRagSkill({ retrieve: () => Promise.resolve(ranked) });
    const context = AgentContext.parse({ query: 'How do topics carry messages between nodes?' });
    const response = await finalResponse(
      createExtractiveRunner().run(testAgent('book', { fallback: true }), context, {
        rag,
        logger: createLogger({ level: 'silent' }),
        minScore: 0.1,
        limit: 5,
      }),
    );
    expect(response.sources.map((c) => [c.index, c.source, c.relevanceScore])).toEqual([
      [1, 'def.md', 0.8],
      [2, 'pub.md', 0.55],
    ]);
    // The quotes follow the numbers, and the footer lists scores from highest to lowest.
    const body = String(response.metadata?.body);
    expect(body.indexOf('[1]')).toBeLessThan(body.indexOf('[2]'));
    expect(response.response).toMatch(
      /\[1\] def\.md.*\(score: 0\.80\)\n\[2\] pub\.md.*\(score: 0\.55\)/,
    );
  });
});
