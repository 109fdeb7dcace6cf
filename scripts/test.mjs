// `npm test`: install and build what is missing (every workspace, and the real agents the tests
// drive), type-check, then run every test once.
// Ends with the ten slowest test files, then one plain summary line, the last one (CI reads
// it): "N passed, N failed, N skipped".
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureAgents } from './agents.mjs';
import { ensure } from './ensure.mjs';
import { root, sh } from './lib.mjs';
import { slowest } from './slowest.mjs';

ensure();
ensureAgents();
if (sh(process.execPath, [join(root, 'scripts/typecheck.mjs')]) !== 0) {
  console.error('npm test: type errors; fix them first.');
  process.exit(1);
}
if (sh(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), 'packages']) !== 0) {
  console.error('npm test: lint errors (package boundaries, floating promises, switches); fix them first.');
  process.exit(1);
}
mkdirSync(join(root, '.artifacts'), { recursive: true });
const report = join(root, '.artifacts', 'vitest.json');
const code = sh(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);
let summary = '0 passed, 1 failed';
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
  console.log(slowest(r.testResults ?? [], 10));
} catch {
  // No report (vitest died before writing it): the summary says so.
}
console.log(`\n${summary}`);
process.exit(code);
