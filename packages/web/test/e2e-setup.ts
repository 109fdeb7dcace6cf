import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { EventHub } from '@collie/bridge';
import type { BrowserContext, Page } from 'playwright-core';
import type { Pane } from '@collie/protocol';
import { build } from 'vite';

const run = promisify(execFile);

export const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const fakeClaude = join(webRoot, '..', 'testkit', 'fake-agent', 'claude');

/** Builds the web app from its current sources into `outDir`, so the test never serves a stale dist. */
export async function buildWeb(outDir: string): Promise<void> {
  // The test runner sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: webRoot,
      configFile: join(webRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** A git working tree at `<parent>/<repo>` on `branch`: the bridge labels its panes `<repo>#<branch>`. */
export async function gitDir(parent: string, repo: string, branch: string): Promise<string> {
  const path = join(parent, repo);
  await mkdir(path, { recursive: true });
  await run('git', ['init', '-q', '-b', branch, path]);
  return path;
}

/**
 * Resolves with the first pane of the bridge's model that `check` accepts: checked now, then
 * after every event the hub publishes. Rejects after `ms`, listing what the model held.
 */
export function untilPane(hub: EventHub, what: string, check: (pane: Pane) => boolean, ms = 15_000): Promise<Pane> {
  const find = () => [...hub.panes.values()].find(check);
  return new Promise((resolve, reject) => {
    const found = find();
    if (found) return resolve(found);
    const timer = setTimeout(() => {
      off();
      const panes = [...hub.panes.values()].map((p) => `${p.id} ${p.label} ${p.harness} ${p.state}`);
      reject(new Error(`timed out waiting for ${what}; panes: ${panes.join(', ')}`));
    }, ms);
    const off = hub.subscribe(() => {
      const pane = find();
      if (!pane) return;
      clearTimeout(timer);
      off();
      resolve(pane);
    });
  });
}

/**
 * Picks the pane page's Terminal view, as a person taps it: on a phone the Chat comes first as soon
 * as the agent's transcript is found, which can happen at any moment of a test that reads the mirror.
 * A shell shows its Terminal with no switch.
 */
export async function showTerminal(page: Page): Promise<void> {
  // A shell has no Chat: its Terminal shows, with no switch.
  await page.locator('.pane-views').waitFor();
  if ((await page.locator('.pane-views-shell').count()) > 0) return void (await page.locator('.pane-views.shows-terminal .term').waitFor());
  const tab = page.getByRole('tab', { name: 'Terminal' });
  await tab.click();
  await page.locator('.pane-views.shows-terminal .term').waitFor();
}

/**
 * Delivers pushes to the app's service worker the way a push service would, through the DevTools
 * protocol (`ServiceWorker.deliverPushMessage`); resolves once the worker of `origin` is registered.
 */
export async function pushToServiceWorker(context: BrowserContext, page: Page, origin: string): Promise<(data: unknown) => Promise<unknown>> {
  const cdp = await context.newCDPSession(page);
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
      const r = e.registrations.find((x) => x.scopeURL.startsWith(origin));
      if (r) resolve(r.registrationId);
    });
    void cdp.send('ServiceWorker.enable');
  });
  return (data) => cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(data) });
}

/** axe-core on what the page shows now (or under `selector`): the serious and critical violations, in words. */
export async function axeProblems(page: Page, selector?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const result = await (selector ? axe.include(selector) : axe).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe-core on a part of the page in light and dark: none serious or critical. */
export async function axeBoth(page: Page, selector: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeProblems(page, selector), `${selector} in ${scheme}`).toEqual([]);
  }
}

/** Opens the pane page's Menu (what and where the pane is, Changes, Files, Rename, Close) if it is closed. */
export async function openPaneMenu(page: Page): Promise<void> {
  const menu = page.locator('.pane-menu-button');
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}
