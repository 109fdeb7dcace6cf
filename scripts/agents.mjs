// The real agent programs the tests drive (Codex, Gemini CLI, OpenCode, pi, omp and the Bun it
// runs under, the Claude and Codex ACP adapters), pinned in packages/testkit/agents: a package of
// their own with its own lockfile, not a workspace, so `npm start` never installs them. `npm
// test`, a benchmark that drives them and `npm run capture` call this first: an install there
// from its lockfile when its node_modules is missing or older than the lockfile
// (`npm install --no-save`, which leaves the lockfile as it is; `npm ci` would also ask for
// other platforms' native builds, which the lockfile does not list). The testkit finds them there
// (packages/testkit/src/agents/installed.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mtime, root, sh } from './lib.mjs';

export const agentsDir = join(root, 'packages', 'testkit', 'agents');

export function agentsInstalled() {
  const stamp = join(agentsDir, 'node_modules', '.package-lock.json');
  return existsSync(stamp) && mtime(stamp) >= mtime(join(agentsDir, 'package-lock.json')) && mtime(stamp) >= mtime(join(agentsDir, 'package.json'));
}

export function ensureAgents({ why = 'the tests drive them' } = {}) {
  if (agentsInstalled()) return;
  console.log(`collie: installing the real agents (Codex, Gemini CLI, OpenCode, pi, omp with Bun, the ACP adapters; about 3 GB) into packages/testkit/agents, because ${why}…`);
  // --loglevel=error: omp pulls puppeteer-core, whose `engines` asks for Node 22 (EBADENGINE);
  // omp runs under Bun, never under this Node.
  if (sh('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: agentsDir }) !== 0) {
    console.error('collie: installing the agents failed; see the output above.');
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureAgents({ why: 'you asked' });
