import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openAssistant, type OpenedAssistant } from '../../src/assistant/index.js';
import { loadConfig } from '../../src/config/index.js';
import {
  startServer,
  type RunningServer,
  type StartServerOptions,
} from '../../src/server/index.js';

/** Debian's Chromium: `.ci/run` installs it; never `playwright install`. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where browser tests save their screenshots. */
export const RESULTS = 'test-results';
/** Browser tests skip, saying why, when Chromium is absent. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** A suite title that says why it is skipped when Chromium is missing. */
export const browserSuite = (title: string) =>
  HAS_CHROMIUM ? title : `${title} (skipped: no ${CHROMIUM}; run apt-get install -y chromium)`;

/** Launches headless Chromium with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  mkdirSync(RESULTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * Opens `url` in a new page that records every request to another host, so a test can assert
 * the page fetches nothing beyond the server.
 */
export async function openRecordingPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; external: string[] }> {
  const page = await browser.newPage({ viewport });
  const external: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('data:')) {
      external.push(request.url());
    }
  });
  await page.goto(url);
  return { page, external };
}

/** The real assistant, extractive, over the sample book in an in-memory store. */
export function openSampleAssistant(): Promise<OpenedAssistant> {
  return openAssistant({
    config: loadConfig({ env: { COHORT_DATA_DIR: 'memory://' }, cwd: process.cwd() }),
  });
}

/** Serves `opened` on a free loopback port; stopping the server closes its store. */
export function servePage(
  opened: OpenedAssistant,
  options: Pick<StartServerOptions, 'research'> = {},
): Promise<RunningServer> {
  return startServer(opened, {
    server: { port: 0, host: '127.0.0.1' },
    handleSignals: false,
    close: opened.close,
    ...options,
  });
}
