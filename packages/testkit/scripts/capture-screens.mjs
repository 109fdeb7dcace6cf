// Saves what the current Claude Code binary draws into packages/testkit/captures/.
// Usage: npm run capture-screens -w @collie/testkit [-- <out dir>]
// The test kit is TypeScript; esbuild bundles the entry next to node_modules so that
// package resolution from the bundle works as it does from the source.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(pkg, 'captures'));
const bundle = join(pkg, '..', '..', 'node_modules', '.cache', 'collie-testkit', 'capture-screens.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await build({
  entryPoints: [join(pkg, 'src', 'capture-screens.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const { captureClaudeScreens } = await import(pathToFileURL(bundle).href);
const names = await captureClaudeScreens(outDir);
console.log(`saved ${names.length} screens to ${outDir}: ${names.join(', ')}`);
