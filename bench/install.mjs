// The install: `npm start`'s install and build on a fresh clone (with an empty npm cache and with
// the warm one), its node_modules size, and the time from `git clone` to the bridge answering
// (a live dashboard); then the one package a user installs: the tarball's size, its installed
// footprint in a prefix of its own, and `collie serve` from there to its first answer.
// Run: node bench/install.mjs [serve-runs=10] [--baseline <commit>] (a commit whose whole
// `npm install` to measure beside it: the install before the agents left the workspace).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { quantile, root } from './lib.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--baseline');
const baseline = at === -1 ? null : args.splice(at, 2)[1];
const runs = Number(args[0] ?? 10);
const work = mkdtempSync(join(tmpdir(), 'collie-bench-install-'));
const MB = (b) => Math.round((b / 1024 / 1024) * 10) / 10;
const du = (dir) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
const quietEnv = (extra = {}) => ({ ...process.env, npm_config_update_notifier: 'false', ...extra });

function timed(fn) {
  const t = performance.now();
  fn();
  return Math.round(performance.now() - t);
}

/** `cmd args…` once it prints `listening on <url>`, until `<url>/` answers: ms from the spawn. */
async function firstAnswer(cmd, cmdArgs, env) {
  const t = performance.now();
  const child = spawn(cmd, cmdArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const on = (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      };
      child.stdout.on('data', on);
      child.stderr.on('data', on);
      child.once('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    const res = await fetch(`${url}/`);
    if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
    return Math.round(performance.now() - t);
  } finally {
    child.kill('SIGKILL');
  }
}

function serveEnv(state) {
  return quietEnv({ COLLIE_NO_SYSTEMD: '1', COLLIE_STATE_DIR: join(state, 'state'), COLLIE_CONFIG_DIR: join(state, 'config'), COLLIE_PUBLIC_URL: '', TMUX_TMPDIR: state });
}

/** A fresh clone of this checkout's HEAD (or `ref`), `npm start`'s install and build, then the bridge's first answer. */
async function startFromClone(label, cache, ref = 'HEAD') {
  const dir = join(work, label);
  const t0 = performance.now();
  execFileSync('git', ['clone', '-q', '--no-checkout', root, dir]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', ref]);
  const env = quietEnv({ npm_config_cache: cache });
  const install = timed(() => execFileSync(process.execPath, [join(dir, 'scripts/ensure.mjs'), '--app'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] }));
  const answer = await firstAnswer(process.execPath, [join(dir, 'packages/cli/dist/collie.mjs'), 'serve', '--port', '0', '--no-qr'], serveEnv(join(dir, '.serve')));
  return { label, install_ms: install, clone_to_answer_ms: Math.round(performance.now() - t0), serve_first_answer_ms: answer, node_modules_mb: MB(du(join(dir, 'node_modules'))) };
}

const result = { date: new Date().toISOString(), node: process.version, start: [], pack: null, baseline: null };
try {
  const cold = mkdtempSync(join(tmpdir(), 'collie-npm-cache-'));
  try {
    result.start.push(await startFromClone('empty-cache', cold));
  } finally {
    rmSync(cold, { recursive: true, force: true });
  }
  result.start.push(await startFromClone('warm-cache', process.env.npm_config_cache ?? join(process.env.HOME ?? '', '.npm')));

  const out = join(work, 'out');
  const tgz = execFileSync(process.execPath, [join(root, 'scripts/pack.mjs'), out], { encoding: 'utf8' }).trim().split('\n').at(-1);
  const prefix = join(work, 'prefix');
  const install = timed(() => execFileSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tgz], { cwd: work, env: quietEnv(), stdio: ['ignore', 'ignore', 'inherit'] }));
  const bin = join(prefix, 'bin', 'collie');
  const answers = [];
  for (let i = 0; i < runs; i++) answers.push(await firstAnswer(bin, ['serve', '--port', '0', '--no-qr'], serveEnv(mkdtempSync(join(work, 'serve-')))));
  result.pack = {
    tarball_mb: MB(statSync(tgz).size),
    install_ms: install,
    installed_mb: MB(du(join(prefix, 'lib', 'node_modules', 'collie'))),
    serve_first_answer_ms: { p50: quantile(answers, 0.5), max: Math.max(...answers), runs },
  };

  if (baseline) {
    // The whole install of `baseline` (what `npm start` ran before): npm install, empty cache.
    const dir = join(work, 'baseline');
    execFileSync('git', ['clone', '-q', '--no-checkout', root, dir]);
    execFileSync('git', ['-C', dir, 'checkout', '-q', baseline]);
    const cache = mkdtempSync(join(tmpdir(), 'collie-npm-cache-'));
    try {
      const ms = timed(() => execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env: quietEnv({ npm_config_cache: cache }), stdio: ['ignore', 'ignore', 'ignore'] }));
      result.baseline = { commit: baseline, install_empty_cache_ms: ms, node_modules_mb: MB(du(join(dir, 'node_modules'))) };
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(result, null, 2));
writeFileSync(join(root, 'bench/results/install.json'), `${JSON.stringify(result, null, 2)}\n`);
