// The order a full run starts its test files in: the live files that take longest first, so
// the two workers finish together instead of one running a long file alone at the end. A
// fresh checkout has no vitest cache (which would sort by last durations), and file size is a
// poor guess: scripts/slow-files.json lists the slowest live files of a full run, longest
// first. Refresh it after a full run with `node scripts/slow-first.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer } from 'vitest/node';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const listFile = join(root, 'scripts', 'slow-files.json');
const KEEP = 30;

export class SlowFirst extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const rank = new Map(JSON.parse(readFileSync(listFile, 'utf8')).map((f, i) => [f, i]));
    const at = (spec) => rank.get(relative(root, spec.moduleId)) ?? Infinity;
    // Projects keep their order (fast, then live); inside one, listed files first, in list order.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => (a.spec.project.name !== b.spec.project.name ? a.i - b.i : at(a.spec) - at(b.spec) || a.i - b.i))
      .map(({ spec }) => spec);
  }
}

// `node scripts/slow-first.mjs [report]`: the list again, from a full run's JSON report
// (.artifacts/vitest.json unless named).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = JSON.parse(readFileSync(process.argv[2] ?? join(root, '.artifacts', 'vitest.json'), 'utf8'));
  const rows = report.testResults
    .map((f) => ({ name: f.name.slice(f.name.lastIndexOf('/packages/') + 1), ms: f.endTime - f.startTime }))
    .filter((f) => f.name.includes('/test/') && Number.isFinite(f.ms))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, KEEP);
  writeFileSync(listFile, `${JSON.stringify(rows.map((r) => r.name), null, 2)}\n`);
  console.log(rows.map((r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.name}`).join('\n'));
}
