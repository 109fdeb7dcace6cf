// `npm test`: install and build what is missing (every workspace, and the real agents the tests
// drive), type-check, then run every test once.
// Ends with the ten slowest test files, then one plain summary line, the last one (CI reads
// it): "N passed, N failed, N skipped".
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureAgents } from './agents.mjs';
import { checks, runJobs } from './checks.mjs';
import { ensure } from './ensure.mjs';
import { root, sh } from './lib.mjs';
import { slowest } from './slowest.mjs';

ensure();
ensureAgents();
// The type checks and the lint, side by side (scripts/checks.mjs).
const failedChecks = await runJobs(checks());
if (failedChecks.length) {
  console.error(`npm test: ${failedChecks.join(', ')} failed (type errors; lint: package boundaries, floating promises, switches); fix them first.`);
  process.exit(1);
}
mkdirSync(join(root, '.artifacts'), { recursive: true });
// The fast and live tests, then the soak alone (it loads both cores itself); with arguments
// (a file, a filter), one run of whatever they name.
const args = process.argv.slice(2);
const runs = args.length ? [['vitest.json', args]] : [['vitest.json', ['--project', 'fast', '--project', 'live']], ['vitest-soak.json', ['--project', 'soak']]];
let code = 0;
for (const [name, extra] of runs) {
  const report = join(root, '.artifacts', name);
  rmSync(report, { force: true });
  const c = sh(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);
  code ||= c;
}
const total = { passed: 0, failed: 0, skipped: 0, files: [] };
try {
  for (const [name] of runs) {
    const r = JSON.parse(readFileSync(join(root, '.artifacts', name), 'utf8'));
    total.passed += r.numPassedTests;
    total.failed += r.numFailedTests;
    total.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    total.files.push(...(r.testResults ?? []));
  }
  console.log(slowest(total.files, 10));
} catch {
  // A report missing (vitest died before writing it): the summary says so.
  total.failed ||= 1;
}
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(code || (total.failed ? 1 : 0));
