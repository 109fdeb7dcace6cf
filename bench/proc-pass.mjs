// One pass over every process's stat file, the read the bridge makes most (every look for a
// pane's agent or transcript shares one): the bridge's pass (packages/bridge/src/procs, bundled
// from source with esbuild) side by side with the same pass read through fs/promises (open, one
// 4 KiB read, close per file: the bridge's way until 2026-12-07). Per pass: wall time, CPU time
// of this process (the main thread and libuv's pool), and the native allocations it leaves for
// the garbage collector (ArrayBuffers made, from process.memoryUsage before a collection).
// The same for every process's descriptors (the folder listed, each link read), as the transcript
// finders and the walky proof read an agent's.
// Usage: node --expose-gc bench/proc-pass.mjs [passes=200]
import { mkdirSync, readdirSync } from 'node:fs';
import { open, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { quantile, root } from './lib.mjs';

const passes = Number(process.argv[2] ?? 200);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const bundle = join(root, 'node_modules', '.cache', 'collie-bench', 'procs.mjs');
mkdirSync(join(bundle, '..'), { recursive: true });
await build({ entryPoints: [join(root, 'packages/bridge/src/procs/index.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
const { fdLinksOf, processTrees } = await import(pathToFileURL(bundle).href);

/** The pass as it was: every stat file through fs/promises, 64 at once. */
async function promisesPass() {
  const names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  const out = [];
  for (let i = 0; i < names.length; i += 64) {
    out.push(
      ...(await Promise.all(
        names.slice(i, i + 64).map(async (n) => {
          try {
            const fh = await open(`/proc/${n}/stat`, 'r');
            try {
              const buf = Buffer.allocUnsafe(4096);
              const { bytesRead } = await fh.read(buf, 0, 4096, 0);
              return buf.toString('utf8', 0, bytesRead);
            } finally {
              await fh.close();
            }
          } catch {
            return null;
          }
        }),
      )),
    );
  }
  return out.length;
}

/** The bridge's pass: a tree of a pid that does not exist reads every stat file and no command line. */
const bridgePass = () => processTrees([2 ** 30]).then(() => readdirSync('/proc').length);

async function measure(name, pass) {
  for (let i = 0; i < 20; i++) await pass(); // warm-up
  globalThis.gc();
  const walls = [];
  let cpu = 0;
  let arrayBuffers = 0;
  let files = 0;
  for (let i = 0; i < passes; i++) {
    const m0 = process.memoryUsage().arrayBuffers;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    files = await pass();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    arrayBuffers += Math.max(0, process.memoryUsage().arrayBuffers - m0);
    // Collected every 10 passes, so what a pass leaves is counted before a collection frees it.
    if (i % 10 === 9) globalThis.gc();
  }
  return { name, files, p50: quantile(walls, 0.5), p99: quantile(walls, 0.99), cpuMs: cpu / passes, kbLeft: arrayBuffers / passes / 1024 };
}

const rows = [await measure('fs/promises per file (before)', promisesPass), await measure('the bridge: synchronous, 64 a turn', bridgePass)];
console.log(`One pass over /proc/*/stat (${rows[1].files} processes), ${passes} passes each:`);
table(rows);

// Every process's descriptors, as the transcript finders and the walky proof read an agent's:
// the folder listed, then each link read.
const pids = () => readdirSync('/proc').filter((n) => /^\d+$/.test(n));
/** As it was: readdir and one readlink per descriptor through fs/promises. */
async function promisesFds() {
  let links = 0;
  for (const n of pids()) {
    const fds = await readdir(`/proc/${n}/fd`).catch(() => []);
    links += (await Promise.all(fds.map((fd) => readlink(`/proc/${n}/fd/${fd}`).catch(() => '')))).length;
  }
  return links;
}
/** The bridge's: `fdLinksOf`, in slices of synchronous reads. */
async function bridgeFds() {
  let links = 0;
  for (const n of pids()) links += (await fdLinksOf(`/proc/${n}`)).length;
  return links;
}
const fdRows = [await measure('fs/promises per link (before)', promisesFds), await measure('the bridge: synchronous, 64 a turn', bridgeFds)];
console.log(`\nEvery process's descriptors (${fdRows[1].files} links), ${passes} passes each:`);
table(fdRows);

function table(rs) {
  console.log('| pass | wall p50 | wall p99 | CPU per pass | ArrayBuffers left per pass |');
  console.log('|---|---|---|---|---|');
  for (const r of rs) console.log(`| ${r.name} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.cpuMs.toFixed(2)} ms | ${r.kbLeft.toFixed(0)} KiB |`);
}
