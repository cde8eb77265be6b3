import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

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
