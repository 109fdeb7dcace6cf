import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real agent programs the tests drive are installed: `packages/testkit/agents`, a
 * small package of their own with its own lockfile, not a workspace, so `npm start` never
 * installs them. `npm test`, a benchmark and `npm run capture` install them there first
 * (scripts/agents.mjs: `npm ci` in that folder). Found from the source (src/agents/) and from
 * the testkit's bundles (dist/) alike.
 */
function findAgentsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'agents', 'package.json'))) return join(dir, 'agents');
    const up = dirname(dir);
    if (up === dir) throw new Error('testkit: packages/testkit/agents/package.json not found');
    dir = up;
  }
}

export const agentsDir = findAgentsDir();

/**
 * `require` as seen from the agents' package: resolves an agent program's files from
 * `packages/testkit/agents/node_modules` (then the folders above it, as Node does).
 */
export const agentRequire = createRequire(join(agentsDir, 'package.json'));

/** What a skipped test says when an agent program is missing. */
export const INSTALL_AGENTS = 'the agent programs are not installed: npm test installs them (node scripts/agents.mjs)';

/**
 * Where an agent's package is installed along the agents' resolution paths, or null (for a
 * package whose `exports` has no `./package.json`).
 */
export function agentPackageDir(name: string): string | null {
  const paths = agentRequire.resolve.paths(name) ?? [];
  return paths.map((p) => join(p, name)).find((p) => existsSync(join(p, 'package.json'))) ?? null;
}
