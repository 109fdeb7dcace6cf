// Work from the phone, against the built bridge (`collie serve`) as its own process:
// - a 1,000-file repository's diff: GET /api/panes/:id/changes (first page) for a pane in it,
//   every file changed (status + diff + parse + page, answered as JSON), and the Changes page's
//   first screen in Chromium at 390x844 (a fresh page until the first page's files are drawn);
// - an upload of 10 MB to its path typed: POST /api/uploads (10 MB PNG) then
//   POST /api/panes/:id/send-files to a shell pane (cat), until the receipt says typed.
// - the New page's folder list: GET /api/new with COLLIE_ROOTS holding 60 repositories (two
//   levels), and its first screen in Chromium at 390x844 (a fresh page at #/new until the
//   folders are drawn).
// Run after `npm run build`:  node bench/workbench.mjs [runs=20]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deviceToken, quantile, root } from './lib.mjs';

const RUNS = Number(process.argv[2] ?? 20);
const kit = await import(join(root, 'packages/testkit/dist/bench-kit.mjs'));
const tmux = await kit.startTmux();
const work = mkdtempSync(join(tmpdir(), 'collie-bench-work-'));
const repo = join(work, 'big');
const git = (...args) => execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=B', ...args], { cwd: repo, stdio: 'ignore' });
mkdirSync(repo);
git('init', '-q', '-b', 'main');
for (let i = 0; i < 1000; i++) {
  mkdirSync(join(repo, `d${i % 20}`), { recursive: true });
  writeFileSync(join(repo, `d${i % 20}`, `f${i}.ts`), Array.from({ length: 40 }, (_, j) => `export const v${j} = ${j};`).join('\n') + '\n');
}
git('add', '-A');
git('commit', '-q', '-m', 'first');
for (let i = 0; i < 1000; i++) writeFileSync(join(repo, `d${i % 20}`, `f${i}.ts`), Array.from({ length: 40 }, (_, j) => `export const v${j} = ${j % 3 === 0 ? j + 1 : j};`).join('\n') + '\n');
// The New page's roots: 60 repositories, 20 at the top and 40 one folder down.
const roots = join(work, 'roots');
for (let i = 0; i < 60; i++) {
  const r = i < 20 ? join(roots, `app${i}`) : join(roots, `team${i % 4}`, `svc${i}`);
  mkdirSync(r, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', r]);
}
const repoPane = await tmux.newSession('repo', { cmd: 'cat', cwd: repo });
const catPane = await tmux.newSession('cat', { cmd: 'cat' });

const state = mkdtempSync(join(tmpdir(), 'collie-bench-state-'));
const env = { ...process.env, TMUX_TMPDIR: tmux.tmpDir, COLLIE_STATE_DIR: state, COLLIE_CONFIG_DIR: join(state, 'config'), COLLIE_ROOTS: roots };
const auth = deviceToken(env);
const child = spawn(process.execPath, [join(root, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const f = (xs, q) => +quantile(xs, q).toFixed(1);
try {
  const url = await new Promise((resolve) => child.stdout.on('data', (d) => { const m = /listening on (\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  const idOf = async (tmuxId) => {
    for (;;) {
      const res = await fetch(`${url}/api/snapshot`, { headers: auth });
      if (res.ok) {
        const p = (await res.json()).panes.find((x) => x.tmuxId === tmuxId);
        if (p) return p.id;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const repoId = await idOf(repoPane);
  const catId = await idOf(catPane);

  const diff = [];
  let shape = null;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/panes/${encodeURIComponent(repoId)}/changes`, { headers: auth });
    const body = await res.json();
    diff.push(performance.now() - t0);
    shape = { files: body.paths.length, pages: body.pages, firstPageFiles: body.files.length };
  }

  const png = Buffer.alloc(10 * 1024 * 1024 - 64, 0);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
  const upload = [];
  for (let i = 0; i < Math.min(RUNS, 10); i++) {
    const t0 = performance.now();
    const up = await fetch(`${url}/api/uploads?name=shot-${i}.png`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...auth }, body: png });
    const { upload: u } = await up.json();
    const res = await fetch(`${url}/api/panes/${encodeURIComponent(catId)}/send-files`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ text: `look ${i}`, attachments: [u.id], request_id: `bench-up-${process.pid}-${i}` }) });
    const { receipt } = await res.json();
    if (receipt.outcome !== 'typed into the pane') throw new Error(`upload ${i}: ${receipt.outcome}`);
    upload.push(performance.now() - t0);
  }
  // The New page: the first GET /api/new asks each agent on PATH for its --version (kept for the
  // bridge's run), so it is reported apart from the others.
  const newApi = [];
  let folders = 0;
  let firstNewApi = 0;
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const body = await (await fetch(`${url}/api/new`, { headers: auth })).json();
    if (i === 0) firstNewApi = performance.now() - t0;
    else newApi.push(performance.now() - t0);
    folders = body.folders.length;
  }
  const browser = await kit.launchChromium();
  const newScreen = [];
  const diffScreen = [];
  try {
    const context = await kit.phoneContext(browser, { baseURL: url });
    await context.addCookies([(await kit.testDevice(state)).cookie(url)]);
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto('/#/new');
      await page.locator('.new-choice-name', { hasText: 'svc59' }).waitFor({ timeout: 60_000 });
      newScreen.push(performance.now() - t0);
      await page.close();
    }
    // The Changes page of the 1,000-file repository: a fresh page until its first page of files is drawn.
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`/#/pane/${encodeURIComponent(repoId)}/changes`);
      await page.locator('.diff-file').nth(shape.firstPageFiles - 1).waitFor({ timeout: 60_000 });
      diffScreen.push(performance.now() - t0);
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
  }
  console.log(
    JSON.stringify(
      {
        diff1000: { runs: RUNS, ...shape, p50: f(diff, 0.5), p99: f(diff, 0.99), screenP50: f(diffScreen, 0.5), screenP99: f(diffScreen, 0.99) },
        upload10mb: { runs: upload.length, p50: f(upload, 0.5), p99: f(upload, 0.99) },
        newFolders: { runs: RUNS, folders, firstApiMs: +firstNewApi.toFixed(1), apiP50: f(newApi, 0.5), apiP99: f(newApi, 0.99), screenP50: f(newScreen, 0.5), screenP99: f(newScreen, 0.99) },
      },
      null,
      2,
    ),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await tmux.kill();
  rmSync(state, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
