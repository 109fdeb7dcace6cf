import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/**
 * Where the agents' programs are looked up: the testkit's own dependencies, or an npm prefix that
 * holds another release (`npm install --prefix /tmp/agents-old/codex @openai/codex@0.156.0`), for
 * `npm run capture -- <agent> --from <prefix>`. Each agent's one locating function
 * (`claudeBinary`, `codexScript`, `geminiScript`, `opencodeBinary`, `piPackageDir`) resolves
 * its package through {@link agentRequire}, so moving where the pinned agents are installed
 * changes those functions only.
 */
let prefix: string | null = null;

/** Look agents up in the npm prefix `dir` from now on (null: the testkit's own dependencies again). */
export function useAgentsFrom(dir: string | null): void {
  prefix = dir === null ? null : resolve(dir);
}

/**
 * A `require` that resolves agent packages: from the prefix given to {@link useAgentsFrom}, else
 * from the module `here` (its `import.meta.url`).
 */
export function agentRequire(here: string): NodeJS.Require {
  return createRequire(prefix === null ? here : join(prefix, 'package.json'));
}

/** The npm prefix agents are looked up in now, or null for the testkit's own dependencies. */
export function agentsFrom(): string | null {
  return prefix;
}
