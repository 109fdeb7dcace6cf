// Bridge back → the phone live again. The built bridge is stopped (SIGTERM, as `collie stop`
// or a restart does; every fifth time SIGKILL) and started again on the same port, with the
// app open in Chromium at 390×844; timed from the bridge's "listening" line (it has found its
// panes and takes phones from then on) to the page showing Live, stamped in the page itself.
// Three rounds: the page visible; the page hidden (it believes `document.visibilityState` is
// `hidden`, since headless Chromium never hides a tab); hidden, then shown 3 s after the bridge is back.
// Run: npm run build && node bench/reconnect.mjs [restarts=20]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { quantile, root, startAgents } from './lib.mjs';

const RESTARTS = Number(process.argv[2] ?? 20);
const agents = startAgents({ panes: 6, sessions: 2 });
const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));

function startBridge(port) {
  const child = spawn(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'serve', '--port', String(port), '--no-qr'], {
    env: { ...process.env, TMUX_TMPDIR: agents.dir, COLLIE_TMUX_TMPDIR: agents.dir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], port: Number(new URL(m[1]).port), readyAt: Date.now(), kill: (sig) => (child.kill(sig), exited) });
    });
    child.once('exit', (code) => reject(new Error(`bridge exited (${code}): ${out}`)));
  });
}

/** In the page: resolves with Date.now() when the page next shows Live. */
const liveStamp = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        const check = () => (document.querySelector('.conn-live') ? (observer.disconnect(), resolve(Date.now()), true) : false);
        const observer = new MutationObserver(check);
        if (!check()) observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      }),
  );

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
let bridge = await startBridge(0);
const port = bridge.port;
const rounds = { visible: [], hidden: [], shown: [] };
try {
  for (const mode of ['visible', 'hidden', 'shown']) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, baseURL: bridge.url });
    if (mode !== 'visible') {
      await context.addInitScript(() => {
        let hidden = true;
        Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
        Object.defineProperty(Document.prototype, 'hidden', { get: () => hidden, configurable: true });
        window.__show = () => {
          hidden = false;
          document.dispatchEvent(new Event('visibilitychange'));
        };
      });
    }
    const page = await context.newPage();
    await page.goto('/');
    await page.locator('.conn-live').waitFor({ timeout: 30_000 });
    for (let i = 0; i < RESTARTS; i++) {
      if (mode === 'shown') await page.evaluate(() => Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true }));
      await bridge.kill(i % 5 === 4 ? 'SIGKILL' : 'SIGTERM');
      await page.locator('.offline').waitFor({ timeout: 30_000 });
      // Down for a while, as a restart is: long enough for the back-off to grow.
      await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1500));
      bridge = await startBridge(port);
      const stamp = liveStamp(page);
      if (mode === 'shown') {
        await new Promise((r) => setTimeout(r, 3000));
        const shownAt = await page.evaluate(() => {
          Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'visible', configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
          return Date.now();
        });
        // 0 when a retry of the hidden page's back-off had already brought it live before it was shown.
        rounds.shown.push(Math.max(0, (await stamp) - shownAt));
      } else {
        rounds[mode].push((await stamp) - bridge.readyAt);
      }
      await page.locator('.offline').waitFor({ state: 'detached', timeout: 30_000 });
    }
    await context.close();
  }
} finally {
  await bridge.kill('SIGKILL');
  await browser.close();
  agents.stop();
  rmSync(state, { recursive: true, force: true });
}
const fmt = (xs) => ({ n: xs.length, p50: Math.round(quantile(xs, 0.5)), max: Math.round(Math.max(...xs)) });
const result = {
  restarts: RESTARTS,
  visible: fmt(rounds.visible),
  hidden: fmt(rounds.hidden),
  hiddenThenShown: { ...fmt(rounds.shown), liveBeforeShown: rounds.shown.filter((x) => x === 0).length },
  raw: rounds,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/reconnect.json'), `${JSON.stringify(result, null, 2)}\n`);
