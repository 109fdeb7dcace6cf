// The slowest test files of a vitest JSON report (its testResults, each with startTime and
// endTime in ms), as lines to print: where a full run's time goes.
import { relative } from 'node:path';
import { root } from './lib.mjs';

export function slowest(results, n) {
  const rows = results
    .filter((f) => Number.isFinite(f.startTime) && Number.isFinite(f.endTime))
    .map((f) => ({ ms: f.endTime - f.startTime, name: relative(root, f.name) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
  const lines = rows.map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name}`);
  return `\nslowest ${rows.length} test files:\n${lines.join('\n')}`;
}
