// The soak's Chromium phone: the web app in a phone-sized page (the testkit's launcher, as the
// web e2e tests use it), paired by the link `collie pair --url` prints, as a person pairs, and
// left on the dashboard through every bridge restart: it reconnects on its own. After each
// restart, and at a few moments of its own schedule, the soak waits until the page says Live and
// compares its rows (pane, state, label) with the bridge's snapshot: equal once a snapshot read
// before and after the page's rows agrees with them; different only when the page still shows
// otherwise after the bridge's panes have stood still for STILL_MS; not comparable when they
// never stand still within a minute. Counted too: the page's event-socket reconnects, its console
// errors and uncaught errors (the browser's own lines for a bridge that is down or starting,
// apart), and one screenshot at the end.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

/** How long the bridge's panes must stand still before a page that still differs counts as different. */
const STILL_MS = 5_000;
const COMPARE_MS = 60_000;
/** What the browser itself logs while the bridge is away or starting: a refused connection, 503 `starting`, a dropped socket. */
const AWAY = /^Failed to load resource: (net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED|NETWORK_CHANGED)|the server responded with a status of 503)|^WebSocket connection to '[^']*\/api\/events[^']*' failed/;

/** What the page shows: per pane row, its id, state and label, keyed by id. */
async function shown(page) {
  const rows = await page.$$eval('a.row', (as) =>
    as.map((a) => ({
      href: a.getAttribute('href') ?? '',
      cls: a.className,
      label: (a.querySelector('.label-name')?.getAttribute('title') ?? '') + (a.querySelector('.label-branch')?.textContent ?? ''),
    })),
  );
  return new Map(
    rows.map((r) => [decodeURIComponent(r.href.replace(/^#\/pane\//, '')), { state: /\brow-(\w+)\b/.exec(r.cls.replace(/\brow-(unreachable|at-limit)\b/g, ''))?.[1] ?? '?', label: r.label }]),
  );
}

/** The snapshot's panes as the page would show them (a shell's row names its folder: its label is not compared). */
function expected(snap) {
  return new Map(snap.panes.map((p) => [p.id, { state: p.state, label: p.harness === 'shell' ? null : p.label }]));
}

function differences(page, want) {
  const out = [];
  for (const [id, w] of want) {
    const g = page.get(id);
    if (!g) out.push({ id, missing: w });
    else if (g.state !== w.state || (w.label !== null && g.label !== w.label)) out.push({ id, shown: g, snapshot: w });
  }
  for (const [id, g] of page) if (!want.has(id)) out.push({ id, extra: g });
  return out;
}

export async function startBrowserPhone({ world, api, r, log }) {
  const kit = await import(pathToFileURL(join(root, 'packages/testkit/dist/bench-kit.mjs')).href);
  const browser = await kit.launchChromium();
  const stats = { sockets: 0, equal: 0, differ: 0, uncompared: 0, differAt: [], consoleErrors: [], pageErrors: [], away: 0, pairing: [], compares: 0, screenshot: null };
  let page;
  let paired = false;
  try {
    const context = await kit.phoneContext(browser, { baseURL: world.bridge.url });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    page.on('websocket', (ws) => void (/\/api\/events/.test(ws.url()) && stats.sockets++));
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const line = `${m.text().slice(0, 300)} (${m.location().url})`;
      // Before it is paired the page asks GET /api/health, answered 401 (auth-state.ts): the browser logs it.
      if (!paired) stats.pairing.push(line);
      else if (AWAY.test(m.text())) stats.away++;
      else stats.consoleErrors.push(line);
    });
    page.on('pageerror', (e) => void stats.pageErrors.push(String(e.message).slice(0, 300)));
    // Paired as a person pairs: the link the CLI prints, opened once.
    await page.goto(world.cli('pair', '--url'));
    await page.locator('.conn-live').waitFor();
    await page.locator('a.row').first().waitFor();
    paired = true;
    log(`soak: Chromium phone paired, dashboard live with ${await page.locator('a.row').count()} rows`);
  } catch (err) {
    await browser.close();
    throw err;
  }

  const key = (m) => JSON.stringify([...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  /** Until the page is live and shows what a still snapshot shows, or the bridge's panes never stand still. */
  async function compareOnce() {
    stats.compares++;
    const deadline = Date.now() + COMPARE_MS;
    let still = { key: null, since: 0 };
    let last = null;
    while (Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 500));
      const live = await page.locator('.conn-live').count().catch(() => 0);
      if (!live) continue;
      const a = await api.snapshot().catch(() => null);
      const rows = await shown(page).catch(() => null);
      const b = await api.snapshot().catch(() => null);
      if (!a?.panes || !b?.panes || !rows || a.run !== b.run) continue;
      const wa = expected(a);
      const ka = key(wa);
      if (ka !== key(expected(b))) {
        still = { key: null, since: 0 };
        continue;
      }
      if (still.key !== ka) still = { key: ka, since: Date.now() };
      last = differences(rows, wa);
      if (last.length === 0) return void stats.equal++;
      if (Date.now() - still.since >= STILL_MS) {
        stats.differ++;
        stats.differAt.push({ at: new Date().toISOString(), differences: last.slice(0, 5) });
        return;
      }
    }
    stats.uncompared++;
  }
  let running = null;
  const compare = () => {
    if (!running) running = compareOnce().finally(() => (running = null));
    return running;
  };
  return {
    stats,
    /** After a bridge restart: a comparison once the page is live again (in the background). */
    afterRestart: () => void compare(),
    /** Now and then, on the page's own schedule. */
    step: () => void (r.chance(0.02) && compare()),
    /** The last comparison, with every send final; then the screenshot (the bridge still up). */
    async settle() {
      await running;
      await compare();
      const path = join(tmpdir(), `collie-soak-dashboard-${process.pid}.png`);
      await page.screenshot({ path, fullPage: true }).then(() => (stats.screenshot = path), () => undefined);
    },
    close: () => browser.close(),
  };
}

/** The table's figures. */
export function countBrowser(stats) {
  return { ...stats, reconnects: Math.max(0, stats.sockets - 1) };
}
