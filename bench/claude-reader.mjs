// The Claude Code reader's cost per screen: read (state, dialog, draft) plus the card where a
// dialog is open, over every real Claude screen in the corpora (harness/claude/captures and the
// shared fixtures' claude--*), each read ROUNDS times after a warm-up. Prints p50 / p99 in µs.
// Run: node bench/claude-reader.mjs [rounds=200]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROUNDS = Number(process.argv[2] ?? 200);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'node_modules', '.cache', 'collie-bench', 'harness.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await build({ entryPoints: [join(root, 'packages/bridge/src/harness/index.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
const { readScreen, readCard } = await import(pathToFileURL(bundle).href);

const dirs = [join(root, 'packages/bridge/src/harness/claude/captures'), join(root, 'packages/testkit/corpus/panes')];
const screens = dirs.flatMap((d) => {
  try {
    return readdirSync(d).filter((f) => f.endsWith('.txt') && (d.endsWith('captures') || f.startsWith('claude--'))).map((f) => readFileSync(join(d, f), 'utf8'));
  } catch {
    return [];
  }
});
const readOne = (s) => {
  const r = readScreen('claude', s);
  if (r.dialog !== null) readCard('claude', s);
};
for (const s of screens) for (let i = 0; i < 20; i++) readOne(s);
const times = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const s of screens) {
    const t0 = performance.now();
    readOne(s);
    times.push((performance.now() - t0) * 1000);
  }
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
const result = { screens: screens.length, reads: times.length, p50_us: Math.round(q(0.5)), p99_us: Math.round(q(0.99)), max_us: Math.round(times.at(-1)) };
console.log(JSON.stringify(result));
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'claude-reader.json'), `${JSON.stringify(result, null, 1)}\n`);
