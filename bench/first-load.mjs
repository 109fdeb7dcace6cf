// The web app's first load: the built bridge (`collie serve`) as its own process over 50
// stand-in Claude panes in 10 sessions; Chromium at 390×844 opens the dashboard in a fresh
// context each run (nothing cached, no service worker yet), with the CPU as is and slowed 4×
// through the DevTools protocol. Timed from the navigation's start to the dashboard usable:
// every pane's row drawn and the connection Live. Also: the first-load JS, gzipped, as
// index.html names it (the pages loaded on first use are apart).
// Run: npm run build && node bench/first-load.mjs [runs=10]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { quantile, root, settle, startAgents, startBridgeProcess } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 10);
const PANES = 50;
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const f = (xs, q) => +quantile(xs, q).toFixed(0);

const dist = join(root, 'packages/web/dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+\.js)"/gu)].map((m) => m[1]);
const entryKB = entry.reduce((n, s) => n + gzipSync(readFileSync(join(dist, s))).length, 0) / 1024;
const later = [...html.matchAll(/<link rel="prefetch" href="\/([^"]+\.js)"/gu)].map((m) => m[1]);
const laterKB = later.reduce((n, s) => n + gzipSync(readFileSync(join(dist, s))).length, 0) / 1024;

const agents = startAgents({ panes: PANES, sessions: 10 });
const bridge = await startBridgeProcess(agents);
const browser = await kit.launchChromium();
const runs = { 1: [], 4: [] };
try {
  await settle(bridge, PANES);
  for (let i = 0; i < RUNS; i++) {
    for (const rate of [1, 4]) {
      const context = await kit.phoneContext(browser, { baseURL: bridge.url });
      await context.addCookies([(await kit.testDevice(bridge.state)).cookie(bridge.url)]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const t0 = performance.now();
      await page.goto('/');
      await page.locator('.row').nth(PANES - 1).waitFor({ timeout: 60_000 });
      await page.locator('.conn-live').waitFor({ timeout: 60_000 });
      runs[rate].push(performance.now() - t0);
      await context.close();
    }
  }
} finally {
  await browser.close();
  bridge.stop();
  agents.stop();
}
console.log(
  JSON.stringify(
    {
      firstLoadJsKB: +entryKB.toFixed(1),
      pagesOnFirstUseKB: +laterKB.toFixed(1),
      panes: PANES,
      runs: RUNS,
      usableMs: { p50: f(runs[1], 0.5), max: f(runs[1], 1) },
      usableMsCpu4x: { p50: f(runs[4], 0.5), max: f(runs[4], 1) },
    },
    null,
    2,
  ),
);
