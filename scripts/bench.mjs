// `npm run bench`: lists the benchmarks (bench/*.mjs, each with the first sentence of its first
// comment). `npm run bench -- <name> [args…]` runs one: it installs and builds what is missing
// first (every workspace; the real agents too when the benchmark drives them), as npm test does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureAgents } from './agents.mjs';
import { ensure } from './ensure.mjs';
import { root, sh } from './lib.mjs';

const dir = join(root, 'bench');
/** Shared code, not benchmarks. */
const LIBRARIES = new Set(['lib']);

/** The first sentence of the file's first comment block, on one line. */
export function describeBench(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    const m = /^\/\/ ?(.*)$/.exec(line);
    if (!m) break;
    lines.push(m[1].trim());
  }
  const words = lines.join(' ').replace(/\s+/g, ' ').trim();
  const end = words.search(/\.(\s|$)/);
  const first = end === -1 ? words : words.slice(0, end);
  return first.length > 110 ? `${first.slice(0, 109).trimEnd()}…` : first;
}

export function benches() {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.mjs') && !LIBRARIES.has(f.slice(0, -4)))
    .sort()
    .map((f) => ({ name: f.slice(0, -4), file: join(dir, f), description: describeBench(readFileSync(join(dir, f), 'utf8')) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, ...args] = process.argv.slice(2);
  const all = benches();
  if (!name) {
    const width = Math.max(...all.map((b) => b.name.length));
    console.log('Benchmarks (npm run bench -- <name> [args…]; results in bench/results/, figures in docs/benchmarks.md):\n');
    for (const b of all) console.log(`  ${b.name.padEnd(width)}  ${b.description}`);
  } else {
    const bench = all.find((b) => b.name === name || `${b.name}.mjs` === name);
    if (!bench) {
      console.error(`npm run bench: no benchmark '${name}'; run npm run bench for the list.`);
      process.exit(2);
    }
    ensure({ quiet: false });
    // A benchmark that drives the real agents (the testkit's AGENT_RIGS) needs them installed.
    if (readFileSync(bench.file, 'utf8').includes('AGENT_RIGS')) ensureAgents({ why: `bench/${bench.name}.mjs drives them` });
    process.exit(sh(process.execPath, [bench.file, ...args]));
  }
}
