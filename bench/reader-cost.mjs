// The screen reader's cost per screen: readScreen + readCard over every captured screen of an
// agent, each read timed alone, many rounds. Run: node bench/reader-cost.mjs [rounds=300]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { quantile, root } from './lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 300);
const bundle = join(root, 'node_modules', '.cache', 'collie-bench', 'harness.mjs');
await build({ entryPoints: [join(root, 'packages/bridge/src/harness/index.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning' });
const { readScreen, readCard } = await import(pathToFileURL(bundle).href);

const sets = {
  claude: join(root, '..', 'shared', 'fixtures', 'panes'),
  codex: join(root, 'packages/bridge/src/harness/codex/captures'),
  gemini: join(root, 'packages/bridge/src/harness/gemini/captures'),
};
const results = {};
for (const [agent, dir] of Object.entries(sets)) {
  const screens = readdirSync(dir).filter((f) => f.startsWith(`${agent}--`) && f.endsWith('.txt')).map((f) => readFileSync(join(dir, f), 'utf8'));
  for (const s of screens) readCard(agent, s); // warm up
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of screens) {
      const t0 = performance.now();
      readScreen(agent, s);
      readCard(agent, s);
      times.push((performance.now() - t0) * 1000);
    }
  }
  results[agent] = { screens: screens.length, reads: times.length, p50us: +quantile(times, 0.5).toFixed(1), p99us: +quantile(times, 0.99).toFixed(1) };
}
console.log(JSON.stringify({ rounds: ROUNDS, ...results }, null, 2));
