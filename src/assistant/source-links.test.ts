import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { ingest } from '../retrieval/index.js';
import { createStore, openPgliteDb } from '../store/index.js';
import { runCli } from '../test/run-cli.js';
import { openAssistant } from './index.js';

describe('sourceUrl: sources a reader can open', () => {
  it('links each cited passage to its page, honouring frontmatter slug and url', async () => {
    const book = mkdtempSync(join(tmpdir(), 'cohort-links-'));
    mkdirSync(join(book, 'unit-2'));
    writeFileSync(
      join(book, 'unit-2', 'index.md'),
      '# Grippers\n\n## Suction cups\n\nA suction gripper holds flat parts with a vacuum seal.\n',
    );
    writeFileSync(
      join(book, 'unit-2', 'fingers.md'),
      '---\nslug: /hands\n---\n# Fingers\n\n## Tendons\n\nA tendon-driven finger bends when its cable is pulled by a motor.\n',
    );
    writeFileSync(
      join(book, 'safety.md'),
      '---\nurl: https://safety.example.org/rules\n---\n# Safety\n\n## Pinch points\n\nA gripper pinch point can trap a finger between the jaws.\n',
    );
    const store = await createStore(await openPgliteDb('memory://'));
    await ingest(book, { store });
    const config = loadConfig({
      env: { COHORT_SOURCE_URL: 'https://robots.example.edu/{path}' },
      overrides: { routing: { enabled: false } },
    });
    const opened = await openAssistant({ config, store });
    try {
      const urls = async (query: string) =>
        (await opened.assistant.ask({ query })).citations.map((c) => c.url);
      expect(await urls('How does a suction gripper hold parts?')).toContain(
        'https://robots.example.edu/unit-2#suction-cups',
      );
      expect(await urls('How does a tendon-driven finger bend?')).toContain(
        'https://robots.example.edu/hands#tendons',
      );
      const reply = await opened.assistant.ask({ query: 'What is a gripper pinch point?' });
      expect(reply.citations[0]?.url).toBe('https://safety.example.org/rules#pinch-points');
      expect(reply.answer).toContain('[1] https://safety.example.org/rules#pinch-points (score: ');
    } finally {
      await opened.close();
      await store.close();
    }
  }, 60_000);

  it('shows paths as before when no template is set, and URLs in `cohort ask` when one is', async () => {
    const plain = await runCli(['ask', 'What is a costmap?', '--json']);
    const plainReply = JSON.parse(plain.stdout) as {
      answer: string;
      citations: { url?: string }[];
    };
    expect(plainReply.citations[0]?.url).toBeUndefined();
    expect(plainReply.answer).toMatch(/\[1\] glossary\.md § /);
    const linked = await runCli(['ask', 'What is a costmap?'], {
      COHORT_SOURCE_URL: 'https://book.example.org/{path}',
    });
    expect(linked.stdout).toMatch(/\[1\] https:\/\/book\.example\.org\/glossary#costmap \(score: /);
    const bad = await runCli(['ask', 'What is a costmap?'], {
      COHORT_SOURCE_URL: 'book.example.org',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('COHORT_SOURCE_URL (sourceUrl): must contain {path}');
  }, 60_000);
});
