import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built pieces sit. The commands run from `packages/bridge/dist/commands.mjs`
 * (bundled) or from source under test; both are two levels below the package root.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const packageRoot = join(here, '..', existsSync(join(here, '..', 'package.json')) ? '' : '..');
export const repoRoot = join(packageRoot, '..', '..');
export const webDir = join(repoRoot, 'packages', 'web', 'dist');
export const cliEntry = join(repoRoot, 'packages', 'cli', 'dist', 'collie.mjs');
/** The `collie` executable of this install: the path the walky talky skill pins (CommonJS, so `walky` starts fast). */
export const cliBin = join(repoRoot, 'packages', 'cli', 'bin', 'collie.cjs');
export const version = '0.1.0';

/** `<state>/bridge.json`: written by a running bridge, read by start, stop and status. */
export function runFile(stateDir: string): string {
  return join(stateDir, 'bridge.json');
}
