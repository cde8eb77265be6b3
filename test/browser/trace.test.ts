import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, HAS_CHROMIUM, launchBrowser, RESULTS, servePage } from './browser.js';
import { openAssistant, type OpenedAssistant } from '../../src/assistant/index.js';
import { loadConfig } from '../../src/config/index.js';
import { createResearchDependencies, type ResearchDependencies } from '../../src/research/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../src/test/fake-openai-server.js';

// The trace panel in a real browser: an answer from a scripted model (over the OpenAI-compatible
// wire, so the model and tool spans carry real token counts) and an extractive research run, each
// opened from the page and read back from GET /runs/:id/trace, with no collector configured.

describe.skipIf(!HAS_CHROMIUM)(browserSuite('the trace panel'), () => {
  let model: FakeOpenAI;
  let opened: OpenedAssistant;
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    model = await startFakeOpenAI({
      chat: [
        {
          kind: 'tool_call',
          name: 'search_book_content',
          arguments: '{"query":"ROS 2 topic","top_k":3}',
          usage: { prompt: 90, completion: 12 },
        },
        {
          kind: 'text',
          text: 'A topic is a named channel that nodes publish messages on [1].',
          usage: { prompt: 120, completion: 18 },
        },
      ],
    });
    opened = await openAssistant({
      config: loadConfig({
        env: {
          OPENAI_BASE_URL: model.baseUrl,
          COHORT_MODEL: 'scripted',
          COHORT_DATA_DIR: 'memory://',
        },
        cwd: mkdtempSync(join(tmpdir(), 'cohort-trace-page-')),
      }),
    });
    // Research runs extractively (no model) over the book, with nothing to search on the web.
    const real = createResearchDependencies(opened.config, { store: opened.store });
    const research: ResearchDependencies = {
      settings: real.settings,
      runs: real.runs!,
      internalMinScore: opened.config.retrieval.minScore,
      retriever: real.retriever!,
      paperSearches: [],
    };
    running = await servePage(opened, { research });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await model?.close();
  });

  it("opens an answer's trace: the waterfall of request, routing, agent, model, tool and retrieval spans", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    await page.goto(running.url);
    await page.fill('#question', 'What is a ROS 2 topic?');
    await page.press('#question', 'Enter');
    const answer = page.locator('.message.assistant').last();
    const panel = answer.locator('details.trace');
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.locator('.waterfall').count()).toBe(0);
    await panel.locator('summary').first().click();
    await answer.locator('details.trace[data-loaded]').waitFor();

    const names = await panel
      .locator('.span-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')));
    expect(names[0]).toBe('cohort.ask');
    expect(names).toEqual(
      expect.arrayContaining([
        'cohort.routing',
        'invoke_agent glossary',
        'chat scripted',
        'execute_tool search_book_content',
        'cohort.retrieval',
      ]),
    );
    expect(names.filter((name) => name === 'chat scripted')).toHaveLength(2);
    // Nesting shows as indentation: the retrieval runs inside the tool call inside the agent.
    const depth = (name: string) =>
      panel
        .locator(`.span-row[data-name="${name}"] .span-name`)
        .first()
        .evaluate((element) => getComputedStyle(element).getPropertyValue('--depth'));
    expect(await depth('cohort.ask')).toBe('0');
    expect(await depth('invoke_agent glossary')).toBe('1');
    expect(Number(await depth('cohort.retrieval'))).toBeGreaterThan(2);

    expect(await panel.locator('.trace-tokens').textContent()).toBe('210 in / 30 out tokens');
    expect(await panel.locator('.trace-routing').textContent()).toMatch(
      /^Routed to glossary by .*, \d+% confident/,
    );
    const chat = panel.locator('.span-row[data-name="chat scripted"]').first();
    expect(await chat.locator('.span-notes').textContent()).toMatch(
      /scripted · \d+ in \/ \d+ out tokens/,
    );
    // Every bar lies on the track: offset and width as percentages of the whole answer.
    const bars = await panel.locator('.span-bar').evaluateAll((all) =>
      all.map((bar) => {
        const box = bar.getBoundingClientRect();
        const track = bar.parentElement!.getBoundingClientRect();
        return { left: box.left - track.left, right: track.right - box.right, width: box.width };
      }),
    );
    for (const bar of bars) {
      expect(bar.left).toBeGreaterThanOrEqual(-0.5);
      expect(bar.right).toBeGreaterThanOrEqual(-0.5);
      expect(bar.width).toBeGreaterThan(0);
    }

    // A row opens to its attributes, under their OpenTelemetry names.
    await chat.locator('summary').click();
    expect(await chat.locator('.span-attributes').textContent()).toContain(
      'gen_ai.usage.input_tokens',
    );
    await page.mouse.move(0, 0);
    await answer.screenshot({ path: `${RESULTS}/trace-answer.png` });
    await page.close();
  }, 60_000);

  it("opens a research run's trace: one task span per subagent under the run", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    await page.goto(`${running.url}/#research`);
    await page.fill(
      '#research-question',
      'What is a ROS 2 topic, which GPU does the workstation need and what does Module 3 cover?',
    );
    await page.fill('#research-tasks', '3');
    await page.click('#research-run');
    const report = page.locator('#research-report');
    await report.waitFor({ state: 'visible', timeout: 60_000 });
    const panel = report.locator('details.trace');
    await panel.locator('summary').first().click();
    await report.locator('details.trace[data-loaded]').waitFor();

    const rows = await panel.locator('.span-row').evaluateAll((all) =>
      all.map((row) => ({
        name: row.getAttribute('data-name') ?? '',
        depth: getComputedStyle(row.querySelector('.span-name')!).getPropertyValue('--depth'),
      })),
    );
    expect(rows[0]).toEqual({ name: 'cohort.research', depth: '0' });
    const tasks = rows.filter((row) => row.name.startsWith('research.task'));
    expect(tasks).toHaveLength(3);
    for (const task of tasks) expect(task.depth).toBe('1');
    expect(rows.some((row) => row.name.startsWith('research.node'))).toBe(true);
    expect(await panel.locator('.trace-totals').textContent()).toMatch(/spans · .* · done$/);
    await page.mouse.move(0, 0);
    await panel.screenshot({ path: `${RESULTS}/trace-research.png` });
    await page.close();
  }, 90_000);
});
