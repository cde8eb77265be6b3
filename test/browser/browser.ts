import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
