// The soak's bridge process: `collie serve` itself (the built commands bundle's serve()), with one
// thing given in code that no flag or variable reaches: pushes may go to the soak's stand-in push
// service on loopback (its CA in the file SOAK_PUSH_CA). Without SOAK_PUSH_CA it is plain serve.
// For the soak's measure only: run with --expose-gc and SOAK_GC_FILE, SIGUSR2 makes a full garbage
// collection and writes the process's memory just after it to that file (RSS without the noise of
// when V8 last collected).
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
    const m = process.memoryUsage();
    writeFileSync(gcFile, JSON.stringify({ pid: process.pid, at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers }));
  });
}
await serve({ port, qr: false, interactive: false, ...(ca ? { push: { ca: readFileSync(ca, 'utf8'), loopbackEndpoints: true } } : {}) });
