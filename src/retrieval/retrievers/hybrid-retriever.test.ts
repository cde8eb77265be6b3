import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { createStore, openPgliteDb, type Store } from '../../store/index.js';
import { startFakeOpenAI } from '../../test/fake-openai-server.js';
import {
  createHybridRetriever,
  createRetriever,
  embedChunks,
  EMBEDDING_FALLBACK_NOTICE,
  embeddingFor,
  ingest,
  type EmbedFunction,
} from '../index.js';

// A toy embedding: one dimension per concept, so paraphrases with no shared word still meet.
const CONCEPTS = [
  ['slam', 'localization', 'mapping', 'lost', 'map', 'where'],
  ['gpu', 'graphics', 'card', 'rtx', 'vram'],
  ['walk', 'balance', 'zmp', 'fall', 'gait', 'tipping'],
];
const conceptEmbed: EmbedFunction = async (texts) =>
  texts.map((text) => {
    const words = text.toLowerCase().split(/[^a-z]+/);
    const vector = CONCEPTS.map(
      (concept) => words.filter((w) => concept.includes(w)).length + 0.01,
    );
    const norm = Math.hypot(...vector);
    return vector.map((v) => v / norm);
  });

describe('hybrid retrieval (pgvector in PGlite)', () => {
  let store: Store;
  const dir = mkdtempSync(join(tmpdir(), 'cohort-hybrid-'));
  beforeAll(async () => {
    writeFileSync(
      join(dir, 'nav.md'),
      '# Navigation\n\n## SLAM\n\nSimultaneous localization and mapping builds a map while tracking the pose of the robot.\n',
    );
    writeFileSync(
      join(dir, 'hw.md'),
      '# Hardware\n\n## Graphics card\n\nAn RTX card with 12 GB of VRAM runs the simulator.\n',
    );
    writeFileSync(
      join(dir, 'walk.md'),
      '# Locomotion\n\n## Balance\n\nThe ZMP must stay inside the support polygon or the humanoid will fall.\n',
    );
    store = await createStore(await openPgliteDb('memory://', { vector: true }));
    await ingest(dir, { store });
  });
  afterAll(() => store.close());

  it('embeds every chunk once, at ingestion', async () => {
    const first = await embedChunks({ store, model: 'toy', embed: conceptEmbed });
    expect(first.embedded).toBeGreaterThanOrEqual(3);
    expect(await store.embeddings.count('toy')).toBe(first.total);
    expect((await embedChunks({ store, model: 'toy', embed: conceptEmbed })).embedded).toBe(0);
  });

  it('finds a paraphrase that shares no word with the passage', async () => {
    const lexical = createRetriever(store);
    const question = 'why do I keep getting lost';
    expect((await lexical.retrieve(question))[0]?.source).not.toBe('nav.md');
    const hybrid = createHybridRetriever({ lexical, store, model: 'toy', embed: conceptEmbed });
    const [top] = await hybrid.retrieve(question, { limit: 3 });
    expect(top?.source).toBe('nav.md');
    expect(top?.metadata.retrieval).toBe('vector');
    expect(top?.score).toBeGreaterThan(0);
    expect(top?.score).toBeLessThanOrEqual(1);
  });

  it('degrades to lexical results with a notice when embedding fails', async () => {
    const lexical = createRetriever(store);
    const failing: EmbedFunction = async () => {
      throw new Error('embedding service down');
    };
    const hybrid = createHybridRetriever({ lexical, store, model: 'toy', embed: failing });
    const results = await hybrid.retrieve('RTX VRAM graphics card');
    expect(results[0]?.source).toBe('hw.md');
    expect(results[0]?.metadata.notice).toBe(EMBEDDING_FALLBACK_NOTICE);
  });

  it('drops the vectors of a replaced file and embeds its new chunks', async () => {
    writeFileSync(
      join(dir, 'walk.md'),
      '# Locomotion\n\n## Gait\n\nA gait cycle alternates stance and swing phases to walk.\n',
    );
    await ingest(dir, { store });
    const { embedded } = await embedChunks({ store, model: 'toy', embed: conceptEmbed });
    expect(embedded).toBe(1);
    expect(await store.embeddings.count('toy')).toBe(await store.chunks.count());
  });

  it('embeds over the real HTTP client against an OpenAI-compatible server', async () => {
    const server = await startFakeOpenAI({
      embeddings: [
        { kind: 'vectors', dimensions: 8 },
        { kind: 'vectors', dimensions: 8 },
      ],
    });
    try {
      const config = loadConfig({
        env: { OPENAI_BASE_URL: server.baseUrl, COHORT_EMBEDDING_MODEL: 'fake-embed' },
        cwd: dir,
      });
      const embedding = embeddingFor(config);
      expect(embedding?.model).toBe('fake-embed');
      const summary = await embedChunks({ store, model: 'fake-embed', embed: embedding!.embed });
      expect(summary.error).toBeUndefined();
      expect(await store.embeddings.count('fake-embed')).toBe(await store.chunks.count());
      const hybrid = createHybridRetriever({
        lexical: createRetriever(store),
        store,
        model: 'fake-embed',
        embed: embedding!.embed,
      });
      expect((await hybrid.retrieve('gait cycle')).length).toBeGreaterThan(0);
      expect(server.requests.every((r) => r.path.endsWith('/embeddings'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("keeps answering when the embedding server changes the vectors' length", async () => {
    // A server that answered with 8-dimension vectors at ingestion now answers with 13: the
    // stored vectors cannot be compared with the question's, and retrieval must not fail for it.
    const server = await startFakeOpenAI({
      embeddings: [
        { kind: 'vectors', dimensions: 8 },
        { kind: 'vectors', dimensions: 13 },
      ],
    });
    try {
      const config = loadConfig({
        env: { OPENAI_BASE_URL: server.baseUrl, COHORT_EMBEDDING_MODEL: 'drifting-embed' },
        cwd: dir,
      });
      const embedding = embeddingFor(config)!;
      const first = await embedChunks({ store, model: 'drifting-embed', embed: embedding.embed });
      expect(first.error).toBeUndefined();
      const hybrid = createHybridRetriever({
        lexical: createRetriever(store),
        store,
        model: 'drifting-embed',
        embed: embedding.embed,
      });
      const results = await hybrid.retrieve('gait cycle');
      expect(results[0]?.source).toBe('walk.md');

      // Vectors of another length are refused at saving, not mixed into the model's column.
      const [chunk] = await store.embeddings.missing('a-model-never-used');
      await expect(
        store.embeddings.save('drifting-embed', [{ id: chunk!.id, vector: [1, 2, 3] }]),
      ).rejects.toMatchObject({ code: 'model_unavailable' });
    } finally {
      await server.close();
    }
  });

  it('has no embedding model without an endpoint (extractive, lexical)', () => {
    expect(
      embeddingFor(loadConfig({ env: { COHORT_EMBEDDING_MODEL: 'x' }, cwd: dir })),
    ).toBeUndefined();
  });
});
