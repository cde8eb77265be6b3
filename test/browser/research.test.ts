import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSuite,
  HAS_CHROMIUM,
  launchBrowser,
  openRecordingPage,
  openSampleAssistant,
  RESULTS,
  servePage,
} from './browser.js';
import type { OpenedAssistant } from '../../src/assistant/index.js';
import { createResearchDependencies, type ResearchDependencies } from '../../src/research/index.js';
import type { RunningServer } from '../../src/server/index.js';

// The research view in a real browser: extractive research over the real sample book (in
// memory). The web search is a local stand-in, so nothing leaves the machine: one clause the
// book cannot answer goes to it and comes back as a web source with a link.

const OFF_BOOK = /zero moment point/i;
const QUESTION =
  'What is a ROS 2 topic, which GPU does the workstation need and how is the zero moment point used for walking?';

describe.skipIf(!HAS_CHROMIUM)(browserSuite('the research view'), () => {
  let opened: OpenedAssistant;
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    opened = await openSampleAssistant();
    const real = createResearchDependencies(opened.config, { store: opened.store });
    const book = real.retriever!;
    const research: ResearchDependencies = {
      settings: real.settings,
      runs: real.runs!,
      internalMinScore: opened.config.retrieval.minScore,
      retriever: {
        retrieve: (query, options) =>
          OFF_BOOK.test(query) ? Promise.resolve([]) : book.retrieve(query, options),
      },
      webSearch: async () => [
        {
          identifier: 'https://example.org/zmp',
          sourceType: 'web',
          title: 'The zero moment point',
          content:
            'The zero moment point is the point on the ground where the net moment of the inertial and gravity forces has no horizontal component. Walking controllers keep it inside the support polygon.',
          url: 'https://example.org/zmp',
        },
      ],
      paperSearches: [],
    };
    running = await servePage(opened, { research });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('runs a question: one card per subagent, then the report whose citations open their source', async () => {
    const { page, external } = await openRecordingPage(browser, running.url, {
      width: 1280,
      height: 1000,
    });
    await page.click('#tab-research');
    expect(await page.locator('#conversation').isHidden()).toBe(true);
    await page.fill('#research-question', QUESTION);
    await page.fill('#research-tasks', '3');
    await page.click('#research-run');

    const report = page.locator('#research-report');
    await report.waitFor({ state: 'visible', timeout: 60_000 });
    const cards = page.locator('#research-cards .card');
    expect(await cards.count()).toBe(3);
    expect(await cards.evaluateAll((all) => all.map((c) => c.getAttribute('data-status')))).toEqual(
      ['done', 'done', 'done'],
    );
    expect(await cards.first().locator('.task').textContent()).toMatch(/topic/i);
    expect(await cards.first().locator('.sources-found').textContent()).toMatch(/^[1-9]\d* source/);
    expect(await cards.first().locator('.step').allTextContents()).toEqual([
      'retrieve',
      'gate',
      'web search',
      'analysis',
    ]);
    // The book answers the first clause; the third went through the web search.
    expect(await cards.first().locator('.step[data-state="skipped"]').textContent()).toBe(
      'web search',
    );
    expect(await cards.nth(2).locator('.step[data-state="done"]').count()).toBe(4);
    expect(await page.locator('#research-status').textContent()).toMatch(
      /Done in .* extractive mode/,
    );
    expect(await report.locator('h3').first().textContent()).toContain('Research:');
    await page.screenshot({ path: `${RESULTS}/research.png` });

    await report.locator('.content button.cite').first().click();
    const dialog = page.locator('#source-dialog');
    await dialog.waitFor({ state: 'visible' });
    expect(await page.locator('#source-title').textContent()).toMatch(/^\[1\]/);
    expect(await page.locator('#source-where').textContent()).toMatch(/^Book passage/);
    expect((await page.locator('#source-text').textContent())?.length).toBeGreaterThan(40);
    expect(await page.locator('#source-link').isHidden()).toBe(true);
    await page.screenshot({ path: `${RESULTS}/research-source.png` });
    await dialog.locator('button').click();

    await report.locator('.sources button', { hasText: 'The zero moment point' }).click();
    await dialog.waitFor({ state: 'visible' });
    const link = page.locator('#source-link');
    expect(await link.getAttribute('href')).toBe('https://example.org/zmp');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    await dialog.locator('button').click();

    expect(external).toEqual([]);
    await page.close();
  }, 90_000);

  it('fits a phone screen and says what went wrong', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(`${running.url}/#research`);
    await page.fill('#research-question', 'What is a ROS 2 topic and what does Module 3 cover?');
    await page.click('#research-run');
    await page.locator('#research-report').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#research-cards .card').count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: `${RESULTS}/research-phone.png`, fullPage: true });

    // The form keeps the task count in 1..8; the server's errors are shown as they come.
    await page.fill('#research-tasks', '9');
    expect(await page.locator('#research-tasks:invalid').count()).toBe(1);
    await page.fill('#research-tasks', '2');
    await page.route('**/research/stream', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'invalid_input',
            message: 'tasks must be a whole number from 1 to 8',
            field: 'tasks',
          },
        }),
      }),
    );
    await page.click('#research-run');
    const alert = page.locator('#research-status[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('tasks must be a whole number from 1 to 8');
    expect(await page.locator('#research-report').isHidden()).toBe(true);
    await page.close();
  }, 90_000);
});
