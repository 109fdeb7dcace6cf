// The screen readers' cost per screen: readScreen + readCard (what the bridge runs on every
// read of a pane) over each agent's real captures in packages/bridge/src/harness/<agent>/captures/.
// Usage: node bench/reader-cost.mjs [rounds=200] [agent …]
// esbuild bundles the harness entry so the TypeScript source runs as it is; the figures are
// per screen, each timed alone with process.hrtime after a warm-up round.
import { existsSync, readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { quantile, root } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 200);
const asked = process.argv.slice(3);
const bundle = join(root, 'node_modules', '.cache', 'collie-bench', 'harness.mjs');
mkdirSync(join(bundle, '..'), { recursive: true });
await build({ entryPoints: [join(root, 'packages/bridge/src/harness/index.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
const { readScreen, readCard } = await import(pathToFileURL(bundle).href);

const harnessDir = join(root, 'packages/bridge/src/harness');
const agents = asked.length > 0 ? asked : readdirSync(harnessDir).filter((a) => existsSync(join(harnessDir, a, 'captures', 'labels.json')));
for (const agent of agents) {
  const dir = join(harnessDir, agent, 'captures');
  const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8'));
  const screens = Object.entries(labels).map(([name, label]) => ({ name, harness: label.harness ?? agent, text: readFileSync(join(dir, `${name}.txt`), 'utf8') }));
  const read = (s) => {
    const reading = readScreen(s.harness, s.text);
    if (reading.dialog !== null) readCard(s.harness, s.text);
  };
  for (const s of screens) read(s);
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of screens) {
      const t0 = process.hrtime.bigint();
      read(s);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const bytes = screens.reduce((n, s) => n + s.text.length, 0) / screens.length;
  console.log(`${agent}: ${screens.length} screens (mean ${Math.round(bytes)} chars), ${times.length} reads: p50 ${quantile(times, 0.5).toFixed(3)} ms, p99 ${quantile(times, 0.99).toFixed(3)} ms, max ${Math.max(...times).toFixed(3)} ms`);
}
