import { describe, expect, it } from 'vitest';
import { citationMarkers } from '../../citations/index.js';
import { CohortConfig } from '../../config/index.js';
import { CohortError } from '../../errors/index.js';
import type { ModelProvider } from '../../models/index.js';
import { AgentContext, type AgentResponse, type RetrievedChunk } from '../../schema/index.js';
import { createLogger } from '../../telemetry/index.js';
import { createScriptedModel, type ScriptedStep } from '../../test/scripted-model.js';
import { testAgent } from '../../test/test-agent.js';
import type { RagSkill } from '../rag-skill.js';
import { createExtractiveRunner } from './extractive-runner.js';
import { createModelRunner } from './model-runner.js';
import type { AgentEvent, AgentRunner } from './runner.js';

// One contract for every AgentRunner (as Hono runs one suite over every router): whatever the
// answering mode, a run ends with exactly one response, cites only what it retrieved, numbers its
// sources 1..n, and degrades to an uncited answer when retrieval finds nothing or fails.

const QUERY = 'How much power does the Jetson Orin draw?';
const PASSAGES: RetrievedChunk[] = [
  {
    id: 'c1',
    text: 'The Jetson Orin draws up to 60 W of power under full load.',
    source: 'docs/hardware/jetson.md',
    title: 'Jetson',
    section: 'Power',
    score: 0.9,
    metadata: {},
  },
  {
    id: 'c2',
    text: 'A bench power supply of 19 V powers the Jetson developer kit.',
    source: 'docs/hardware/power.md',
    title: 'Power',
    section: 'Supplies',
    score: 0.6,
    metadata: {},
  },
];

type Retrieval = 'found' | 'nothing' | 'fails';

/** Each runner, with a model script that answers the way the retrieval case calls for. */
const runners: Array<[string, (retrieval: Retrieval) => AgentRunner]> = [
  ['extractive runner', () => createExtractiveRunner()],
  [
    'model runner (scripted model)',
    (retrieval) => {
      const steps: ScriptedStep[] = [
        { toolCalls: [{ toolName: 'search_book_content', input: { query: QUERY } }] },
        {
          text:
            retrieval === 'found'
              ? 'The Jetson Orin draws up to 60 W [1].'
              : "I couldn't find relevant information about that topic in the book.",
        },
      ];
      const model = createScriptedModel(steps);
      const provider: ModelProvider = {
        languageModel: () => model,
        resolveModelId: () => model.modelId,
        describe: () => 'scripted',
      };
      const config = CohortConfig.parse({ model: { baseUrl: 'http://127.0.0.1:9/v1' } });
      return createModelRunner({ provider, config, retryDelayMs: 1 });
    },
  ],
];

function rag(retrieval: Retrieval): RagSkill {
  return {
    name: 'rag',
    description: 'fake',
    retrieve: async () => {
      if (retrieval === 'fails')
        throw new CohortError('retrieval_unavailable', 'The search is down.');
      return retrieval === 'found' ? PASSAGES : [];
    },
  };
}

async function run(runner: AgentRunner, retrieval: Retrieval) {
  const events: AgentEvent[] = [];
  const context = AgentContext.parse({ sessionId: 'anonymous', query: QUERY });
  const deps = {
    rag: rag(retrieval),
    logger: createLogger({ level: 'silent' }),
    minScore: 0.2,
    limit: 5,
  };
  for await (const event of runner.run(testAgent('hardware'), context, deps)) events.push(event);
  const responses = events.filter((event) => event.type === 'response');
  expect(responses).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('response');
  return (responses[0] as { response: AgentResponse }).response;
}

describe.each(runners)('AgentRunner contract: %s', (_name, make) => {
  it('cites only retrieved passages, numbered 1..n, and every [n] has its source', async () => {
    const runner = make('found');
    const response = await run(runner, 'found');
    expect(response.metadata.mode).toBe(runner.mode);
    expect(response.sources.length).toBeGreaterThan(0);
    expect(response.sources.map((source) => source.index)).toEqual(
      response.sources.map((_, i) => i + 1),
    );
    const retrieved = new Set(PASSAGES.map((passage) => passage.source));
    for (const source of response.sources) expect(retrieved.has(source.source)).toBe(true);
    const indexes = new Set(response.sources.map((source) => source.index));
    const markers = citationMarkers(response.response);
    expect(markers.length).toBeGreaterThan(0);
    for (const n of markers) expect(indexes.has(n)).toBe(true);
    expect(response.response).toContain('**Sources:**');
  });

  it('answers without citations when retrieval finds nothing', async () => {
    const response = await run(make('nothing'), 'nothing');
    expect(response.sources).toEqual([]);
    expect(citationMarkers(response.response)).toEqual([]);
    expect(response.response).not.toContain('**Sources:**');
  });

  it('answers without citations, and without throwing, when retrieval fails', async () => {
    const response = await run(make('fails'), 'fails');
    expect(response.sources).toEqual([]);
    expect(citationMarkers(response.response)).toEqual([]);
  });
});
