// The walky proof of a burst of callers: N connections accepted at once on a unix socket, each
// proved as the bridge proves a walky caller (packages/bridge/src/walky/peer.ts, bundled from
// source with esbuild): its end of the connection read from the kernel's socket table by `ss`,
// then the claimed process's descriptors. Side by side: one `ss` process a proof (the bridge's
// way until 2026-12-07) and one shared table (`ssTable`: one run at a time, a call joins the
// next run that starts after it). A bridge restarted under load is asked again by every waiting
// sender at once; its heap makes each spawn dearer, so `ballast` MB of live objects stand in for it.
// Per burst: wall time to the last proof, p50 / p99 of a proof, ss processes started.
// Usage: node bench/walky-proof.mjs [rounds=5] [ballast=150] [json-out]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { quantile, root } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 5);
const ballastMb = Number(process.argv[3] ?? 150);
const out = process.argv[4];
const bundle = join(root, 'node_modules', '.cache', 'collie-bench', 'peer.mjs');
mkdirSync(join(bundle, '..'), { recursive: true });
await build({ entryPoints: [join(root, 'packages/bridge/src/walky/peer.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
const { findSs, peerOf, proveCaller, runSs, ssTable } = await import(pathToFileURL(bundle).href);

// Live objects the size of a bridge's heap: a fork copies the page tables of all of it.
const ballast = Array.from({ length: ballastMb }, () => Buffer.alloc(1024 * 1024, 1));
const bin = await findSs();
if (!bin) throw new Error('ss (iproute2) is not installed');

/** One burst of `n` connections, proved through `table` (made anew per burst); returns its figures. */
async function burst(n, makeTable) {
  const dir = mkdtempSync(join(tmpdir(), 'collie-proof-bench-'));
  const path = join(dir, 'sock');
  let spawned = 0;
  const table = makeTable((b) => {
    spawned++;
    return runSs(b);
  });
  const times = [];
  const proofs = [];
  const server = createServer((conn) => {
    const t0 = performance.now();
    proofs.push(
      proveCaller(process.pid, peerOf(conn, path, table), new Set()).then((p) => {
        if ('refused' in p) throw new Error(p.refused);
        times.push(performance.now() - t0);
      }),
    );
  });
  await new Promise((resolve) => server.listen(path, resolve));
  const start = performance.now();
  const clients = await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => { const c = connect(path).once('connect', () => resolve(c)).once('error', reject); })));
  while (proofs.length < n) await new Promise((r) => setTimeout(r, 1));
  await Promise.all(proofs);
  const wall = performance.now() - start;
  for (const c of clients) c.destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
  return { wall, times, spawned };
}

const ways = {
  'one ss a proof': (run) => () => run(bin),
  'one shared table': (run) => ssTable(bin, run),
};
const rows = [];
for (const n of [1, 10, 50, 100]) {
  for (const [way, makeTable] of Object.entries(ways)) {
    const walls = [];
    const all = [];
    let spawned = 0;
    for (let r = 0; r < rounds; r++) {
      const b = await burst(n, makeTable);
      walls.push(b.wall);
      all.push(...b.times);
      spawned += b.spawned;
    }
    const row = { n, way, wallP50: quantile(walls, 0.5), proofP50: quantile(all, 0.5), proofP99: quantile(all, 0.99), ssPerBurst: spawned / rounds };
    rows.push(row);
    console.log(`${String(n).padStart(3)} at once, ${way.padEnd(16)}: burst ${row.wallP50.toFixed(0).padStart(5)} ms, proof p50 ${row.proofP50.toFixed(0).padStart(5)} / p99 ${row.proofP99.toFixed(0).padStart(5)} ms, ss runs ${row.ssPerBurst.toFixed(1)}`);
  }
}
if (out) writeFileSync(out, `${JSON.stringify({ rounds, ballastMb, rows }, null, 2)}\n`);
void ballast.length;
