// The soak's bridge process: `collie serve` itself (the built commands bundle's serve()), with one
// thing given in code that no flag or variable reaches: pushes may go to the soak's stand-in push
// service on loopback (its CA in the file SOAK_PUSH_CA). Without SOAK_PUSH_CA it is plain serve.
// For the soak's measure only: run with --expose-gc and SOAK_GC_FILE, SIGUSR2 makes a full garbage
// collection, and another 2 s later (V8 gives freed pages back to the system a moment after a
// collection), and writes the process's memory then to that file (RSS without the noise of when V8
// last collected), with where the resident memory lies (`split`, from /proc/self/smaps).
//   node bench/soak/bridge-main.mjs --port N
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib.mjs';

const { serve } = await import(pathToFileURL(join(root, 'packages/bridge/dist/commands.mjs')).href);
const i = process.argv.indexOf('--port');
const port = i < 0 ? undefined : Number(process.argv[i + 1]);
const ca = process.env.SOAK_PUSH_CA;
const gcFile = process.env.SOAK_GC_FILE;
if (gcFile && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    setTimeout(() => {
      globalThis.gc();
      const m = process.memoryUsage();
      writeFileSync(gcFile, JSON.stringify({ pid: process.pid, at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, split: residentSplit() }));
    }, 2_000);
  });
}

/**
 * Resident kB by where it lies: glibc's main arena (`[heap]`), its other arenas (anonymous
 * mappings that start on a 64 MB boundary, the size glibc reserves for each), the rest of the
 * anonymous memory (V8's heap pages, large mallocs, thread stacks) and mapped files.
 */
function residentSplit() {
  const ARENA = 64 * 1024 * 1024;
  const out = { mainArena: 0, arenas: 0, arenaCount: 0, otherAnon: 0, files: 0 };
  let kind = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[2];
      if (path === '[heap]') kind = 'mainArena';
      else if (path === '' && Number(BigInt(`0x${head[1]}`) % BigInt(ARENA)) === 0) kind = 'arenas';
      else if (path === '' || path.startsWith('[anon')) kind = 'otherAnon';
      else if (path.startsWith('[')) kind = null;
      else kind = 'files';
      if (kind === 'arenas') out.arenaCount++;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind) out[kind] += Number(rss[1]);
  }
  return out;
}
await serve({ port, qr: false, interactive: false, ...(ca ? { push: { ca: readFileSync(ca, 'utf8'), loopbackEndpoints: true } } : {}) });
