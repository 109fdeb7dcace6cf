// The checks before the tests: each package type-checked against its own tsconfig (the
// protocol's sees no node types; the web app's tests need node types its browser code must not
// see), and the lint. They are separate processes of a core each, so they run side by side, as
// many at once as there are cores; each one's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

export const TYPECHECKED = ['protocol', 'durable-sdk', 'bridge', 'cli', 'testkit', 'web', 'web/test', 'nerve', 'acp-bridge'];

const tsc = (p) => ({ name: `typecheck packages/${p}`, args: [join(root, 'node_modules/typescript/bin/tsc'), '-p', `packages/${p}/tsconfig.json`] });
const lint = { name: 'lint', args: [join(root, 'node_modules/eslint/bin/eslint.js'), 'packages'] };

/** Runs `jobs` (node scripts), `width` at once; resolves with the names of those that failed. */
export async function runJobs(jobs, width = availableParallelism()) {
  const failed = [];
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { code, out } = await runOne(job);
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (code !== 0) failed.push(job.name);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
  return failed;
}

function runOne(job) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, job.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => resolve({ code: 1, out: `${job.name}: ${err.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** The lint first (the longest), then every package's type check. */
export function checks() {
  return [lint, ...TYPECHECKED.map(tsc)];
}

export function typechecks() {
  return TYPECHECKED.map(tsc);
}
