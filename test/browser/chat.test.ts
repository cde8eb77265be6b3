import type { Browser, Page } from 'playwright-core';
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
import type { RunningServer } from '../../src/server/index.js';

// The web chat page in a real browser, over the real assistant (extractive, sample book in memory).

describe.skipIf(!HAS_CHROMIUM)(browserSuite('the web chat page'), () => {
  let opened: OpenedAssistant;
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    opened = await openSampleAssistant();
    running = await servePage(opened);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  async function ask(page: Page, question: string) {
    await page.fill('#question', question);
    await page.press('#question', 'Enter');
    const answer = page.locator('.message.assistant').last();
    await answer.locator('.sources').waitFor();
    await page.waitForSelector('.message.assistant:last-child:not([aria-busy])');
    return answer;
  }

  it('streams an answer with the agent badge, the routing reason and citations that open their passage', async () => {
    const { page, external } = await openRecordingPage(browser, running.url, {
      width: 1280,
      height: 860,
    });
    await expect(page.locator('#notice').textContent()).resolves.toContain('Extractive mode');

    const answer = await ask(page, 'What is a ROS 2 topic?');
    expect(await answer.locator('.agent-badge').textContent()).toBe('glossary');
    expect(await answer.locator('.content p').first().textContent()).toMatch(/topic/i);
    await answer.locator('.why summary').click();
    expect(await answer.locator('.why').textContent()).toMatch(/% confident/);

    await answer.locator('.content button.cite').first().click();
    const dialog = page.locator('#passage');
    await dialog.waitFor({ state: 'visible' });
    expect(await page.locator('#passage-title').textContent()).toMatch(/^\[1\]/);
    expect(await page.locator('#passage-where').textContent()).toMatch(/relevance \d\.\d\d/);
    expect((await page.locator('#passage-text').textContent())?.length).toBeGreaterThan(40);
    await page.screenshot({ path: `${RESULTS}/chat.png` });
    await dialog.locator('button').click();

    await page.click('#agents-toggle');
    expect(await page.locator('#agent-list .agent').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#agent-list').textContent()).toContain('hardware');

    await page.reload();
    await page.locator('.message.user').first().waitFor();
    expect(await page.locator('.message.user').first().textContent()).toBe(
      'What is a ROS 2 topic?',
    );
    expect(await page.locator('.message.assistant .agent-badge').first().textContent()).toBe(
      'glossary',
    );
    expect(external).toEqual([]);
    await page.close();
  }, 60_000);

  it('works at phone width and says what went wrong when the server fails', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(running.url);
    await page.click('#new-chat');
    await ask(page, 'Which GPU does the workstation need?');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: `${RESULTS}/chat-phone.png` });

    await page.route('**/chat/stream', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'retrieval_unavailable',
            message:
              "I'm unable to search the book right now. The retrieval service is unavailable.",
            field: null,
          },
        }),
      }),
    );
    await page.fill('#question', 'What is a node?');
    await page.press('#question', 'Enter');
    const failed = page.locator('.message.assistant.error');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('unable to search the book right now');
    await page.close();
  }, 60_000);
});
