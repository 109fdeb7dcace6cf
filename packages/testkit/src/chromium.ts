import type { Browser, BrowserContext } from 'playwright-core';

/** Debian's Chromium; playwright-core ships no browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a quiet, offline, headless Chromium: no GPU, no sandbox (containers and root),
 * and nothing that phones home (sync, component updates, background networking, QUIC).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

/**
 * Launches Debian's Chromium through playwright-core. Each launch gets a fresh user-data-dir:
 * playwright-core creates a temp profile per `launch()` and deletes it on `close()`.
 * The browser disposes itself (`await using`).
 *
 * @example
 * await using browser = await launchChromium();
 * await using context = await phoneContext(browser);
 * const page = await context.newPage();
 */
export async function launchChromium(opts: { args?: string[] } = {}): Promise<Browser> {
  // Loaded here, not at the top: playwright-core takes seconds to import, and most tests
  // import the test kit for tmux or the API alone.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
  });
}

/**
 * A phone-sized context: 390×844 CSS pixels at device scale 2, mobile layout and touch,
 * as the people who use Collie mostly see it.
 *
 * @example
 * await using context = await phoneContext(browser);
 */
export async function phoneContext(browser: Browser, opts: { baseURL?: string; timezoneId?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
}
