import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { openKnowledgeBase } from '../retrieval/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../test/fake-openai-server.js';
import { openAssistant } from './index.js';

// The README's library example, `openAssistant({ config: loadConfig() })`, with nothing handed in:
// the configuration alone must decide the answering mode.
describe('openAssistant builds everything from the configuration', () => {
  let server: FakeOpenAI | undefined;
  afterEach(() => server?.close());
  const cwd = mkdtempSync(join(tmpdir(), 'cohort-open-'));

  it('answers with the configured model when OPENAI_BASE_URL is set', async () => {
    server = await startFakeOpenAI({
      chat: [
        { kind: 'tool_call', name: 'search_book_content', arguments: '{"query":"ROS 2 topic"}' },
        { kind: 'text', text: 'A topic is a named bus that nodes publish messages on [1].' },
      ],
    });
    const config = loadConfig({
      env: {
        OPENAI_BASE_URL: server.baseUrl,
        COHORT_MODEL: 'scripted',
        COHORT_DATA_DIR: 'memory://',
      },
      cwd,
    });
    const { assistant, modeDescription, close } = await openAssistant({ config });
    try {
      const reply = await assistant.ask({ query: 'What is a ROS 2 topic?' });
      expect(reply.mode).toBe('model');
      expect(reply.answer).toContain('A topic is a named bus that nodes publish messages on [1].');
      expect(reply.citations.length).toBe(1);
      expect(modeDescription).toMatch(/^model: /);
      expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('answers extractively when no model is configured', async () => {
    const config = loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd });
    const { assistant, close } = await openAssistant({ config });
    try {
      const reply = await assistant.ask({ query: 'What is a ROS 2 topic?' });
      expect(reply.mode).toBe('extractive');
    } finally {
      await close();
    }
  });

  it('shares a knowledge base it is given and leaves it open', async () => {
    const config = loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd });
    const knowledgeBase = await openKnowledgeBase({ config });
    try {
      expect(knowledgeBase.ingested?.files).toBeGreaterThan(0);
      const opened = await openAssistant({ config, knowledgeBase });
      expect(opened.store).toBe(knowledgeBase.store);
      expect(opened.retriever).toBe(knowledgeBase.retriever);
      await opened.close();
      expect(await knowledgeBase.store.chunks.count()).toBeGreaterThan(0);
    } finally {
      await knowledgeBase.close();
    }
  });
});
