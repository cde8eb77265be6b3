import { describe, expect, it } from 'vitest';
import type { AgentDependencies, AgentEvent } from '../agents/index.js';
import { CohortConfig } from '../config/index.js';
import type { ModelProvider } from '../models/index.js';
import { createScriptedModel, type ScriptedModel } from '../test/scripted-model.js';
import type { AgentResponse, Citation } from '../schema/index.js';
import { createLogger } from '../telemetry/index.js';
import { createModelSynthesiser } from './model-synthesis.js';

const citation = (index: number, chunkId: string, source: string, score = 0.8): Citation => ({
  index,
  source,
  title: source,
  section: `About ${chunkId}`,
  relevanceScore: score,
  text: `Passage ${chunkId}.`,
  chunkId,
});

const part = (agentName: string, text: string, sources: Citation[]): AgentResponse => ({
  response: `${text}\n\n---\n**Sources:**\n(footer)`,
  sources,
  agentName,
  confidence: 0.7,
  metadata: {
    mode: 'model',
    body: text,
    usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 },
  },
});

// hardware cites A as [1] and B as [2]; capstone cites B as [1] (the same chunk) and C as [2].
const hardware = part('hardware', 'The Orin draws 60 W [1] and runs ROS 2 [2].', [
  citation(1, 'A', 'hw.md'),
  citation(2, 'B', 'ros.md'),
]);
const capstone = part('capstone', 'The capstone runs ROS 2 [1] on a humanoid [2].', [
  citation(1, 'B', 'ros.md'),
  citation(2, 'C', 'cap.md'),
]);

const titleOf = (name: string) =>
  ({ hardware: 'Hardware', capstone: 'Capstone project' })[name] ?? name;

const config = CohortConfig.parse({
  model: { baseUrl: 'http://127.0.0.1:9/v1', name: 'full-model' },
});
const providerOf = (model: ScriptedModel): ModelProvider => ({
  languageModel: () => model,
  resolveModelId: () => model.modelId,
  describe: () => 'scripted',
});
const deps = {
  logger: createLogger({ level: 'silent' }),
  minScore: 0.2,
  limit: 5,
} as AgentDependencies;

async function collect(events: AsyncIterable<AgentEvent>) {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  const last = all.at(-1);
  if (last?.type !== 'response') throw new Error('no response');
  const streamed = all.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  return { response: last.response, streamed };
}

describe('createModelSynthesiser', () => {
  it('merges answers in one call with de-duplicated, renumbered citations', async () => {
    const model = createScriptedModel(
      [{ text: ['The Orin draws 60 W [1]; both use ', 'ROS 2 [2] on a humanoid [3] [9].'] }],
      {
        record: true,
      },
    );
    const synthesiser = createModelSynthesiser({ provider: providerOf(model), config });
    const { response, streamed } = await collect(
      synthesiser.synthesise('Power and capstone?', [hardware, capstone], deps),
    );

    // The model saw the answers with markers already moved onto the merged list A=1, B=2, C=3.
    const prompt = JSON.stringify(model.calls[0]?.prompt);
    expect(prompt).toContain('The capstone runs ROS 2 [2] on a humanoid [3].');
    expect(prompt).toContain('[3] cap.md § About C: Passage C.');

    expect(response.metadata.body).toBe(
      'The Orin draws 60 W [1]; both use ROS 2 [2] on a humanoid [3].',
    );
    expect(response.sources.map((s) => [s.index, s.chunkId])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
    expect(response.metadata.ungrounded_citations).toEqual([9]);
    expect(response.response).toBe(streamed);
    expect(response.response).toContain('**Sources:**\n[1] hw.md');
    expect(response.metadata.usage).toEqual({
      promptTokens: 210,
      completionTokens: 25,
      totalTokens: 235,
    });
    // A registered agent's name, the primary's (it was "hardware+capstone", which no agent is).
    expect(response.agentName).toBe('hardware');
    expect(response.metadata.agents).toEqual(['hardware', 'capstone']);
  });

  it('passes a single usable answer through without a model call', async () => {
    const model = createScriptedModel([]);
    const failed = { ...capstone, sources: [], metadata: { error: 'no_results' } };
    const synthesiser = createModelSynthesiser({ provider: providerOf(model), config });
    const { response } = await collect(synthesiser.synthesise('q', [hardware, failed], deps));
    expect(response).toBe(hardware);
    expect(model.callCount).toBe(0);
  });

  it('falls back to merging without a model when the synthesis call fails', async () => {
    const model = createScriptedModel([{ error: new Error('connection reset') }]);
    const synthesiser = createModelSynthesiser({
      provider: providerOf(model),
      config: CohortConfig.parse({ model: { ...config.model, maxRetries: 0 } }),
    });
    const { response } = await collect(
      synthesiser.synthesise('q', [hardware, capstone], deps, titleOf),
    );
    expect(response.metadata.synthesis).toBe('fallback');
    expect(response.sources.map((s) => s.chunkId)).toEqual(['A', 'B', 'C']);
    expect(response.response).toContain('The capstone runs ROS 2 [2] on a humanoid [3].');
    // Each part under its agent's title, as in an extractive merge, not the agent's id.
    expect(response.response).toContain('**Capstone project**');
    expect(response.response).not.toContain('**capstone**');
  });

  it('merges without a model when the synthesis cites only passages it was not given', async () => {
    // Found from outside: a hostile model's "[7][42]" were taken out as they streamed, and the
    // merged answer went out with no citation and no word that nothing backed it.
    const model = createScriptedModel([{ text: ['Both draw power from the wall [7][42].'] }]);
    const synthesiser = createModelSynthesiser({ provider: providerOf(model), config });
    const { response } = await collect(
      synthesiser.synthesise('q', [hardware, capstone], deps, titleOf),
    );
    expect(response.metadata.synthesis).toBe('fallback');
    expect(response.sources.map((s) => s.chunkId)).toEqual(['A', 'B', 'C']);
    expect(response.response).toContain('The Orin draws 60 W [1] and runs ROS 2 [2].');
  });

  it("names each answer by its agent's title in the synthesis prompt", async () => {
    const model = createScriptedModel([{ text: ['Both use ROS 2 [2].'] }], { record: true });
    const synthesiser = createModelSynthesiser({ provider: providerOf(model), config });
    await collect(synthesiser.synthesise('q', [hardware, capstone], deps, titleOf));
    const prompt = JSON.stringify(model.calls[0]?.prompt);
    expect(prompt).toContain('### Answer from the Capstone project agent');
    expect(prompt).not.toContain('the capstone agent');
  });
});
