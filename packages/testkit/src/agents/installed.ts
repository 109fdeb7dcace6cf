import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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

const pinned = createRequire(join(agentsDir, 'package.json'));
let from: string | null = null;

/**
 * Look agents up in the npm prefix `dir` from now on (null: the pinned agents again): another
 * release installed with `npm install --prefix /tmp/agents-old/codex @openai/codex@0.156.0`, for
 * `npm run capture -- <agent> --from <prefix>`.
 */
export function useAgentsFrom(dir: string | null): void {
  from = dir === null ? null : resolve(dir);
}

/** The npm prefix agents are looked up in now, or null for the pinned agents. */
export function agentsFrom(): string | null {
  return from;
}

/**
 * `require` as seen from the agents' package: resolves an agent program's files from
 * `packages/testkit/agents/node_modules` (then the folders above it, as Node does), or from the
 * prefix given to {@link useAgentsFrom}. Each agent's one locating function (`claudeBinary`,
 * `codexScript`, `geminiScript`, `opencodeBinary`, `piPackageDir`, omp's) resolves through it.
 */
export function agentRequire(): NodeJS.Require {
  return from === null ? pinned : createRequire(join(from, 'package.json'));
}

/** What a skipped test says when an agent program is missing. */
export const INSTALL_AGENTS = 'the agent programs are not installed: npm test installs them (node scripts/agents.mjs)';

/**
 * Where an agent's package is installed along the agents' resolution paths, or null (for a
 * package whose `exports` has no `./package.json`).
 */
export function agentPackageDir(name: string): string | null {
  const paths = agentRequire().resolve.paths(name) ?? [];
  return paths.map((p) => join(p, name)).find((p) => existsSync(join(p, 'package.json'))) ?? null;
}
