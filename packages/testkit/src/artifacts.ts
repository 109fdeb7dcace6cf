import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file lives in `packages/testkit/src/`. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Path of a test artefact (a screenshot, a captured screen) under `<repo>/.artifacts/`,
 * which git ignores. Creates the parent directory.
 *
 * @example
 * await page.screenshot({ path: artifactPath('dashboard/phone.png') });
 */
export function artifactPath(name: string): string {
  const path = join(repoRoot, '.artifacts', name);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}
