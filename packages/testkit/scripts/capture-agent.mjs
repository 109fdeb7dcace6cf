// Saves what a real agent draws into its reader's captures folder
// (packages/bridge/src/harness/<agent>/captures/), with labels.json, refreshing the corpus the
// reader's fixture table runs over. Usage: node packages/testkit/scripts/capture-agent.mjs <agent> [<out dir>]
// esbuild bundles the entry next to node_modules so that package resolution from the bundle
// works as it does from the source.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const AGENTS = { codex: 'captureCodexScreens', gemini: 'captureGeminiScreens', opencode: 'captureOpencodeScreens' };
const agent = process.argv[2] ?? '';
if (!(agent in AGENTS)) {
  console.error(`capture-agent: name one of ${Object.keys(AGENTS).join(', ')}`);
  process.exit(2);
}
const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[3] ?? join(pkg, '..', 'bridge', 'src', 'harness', agent, 'captures'));
const bundle = join(pkg, '..', '..', 'node_modules', '.cache', 'collie-testkit', `capture-${agent}.mjs`);
mkdirSync(dirname(bundle), { recursive: true });
await build({
  entryPoints: [join(pkg, 'src', 'index.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const kit = await import(pathToFileURL(bundle).href);
const names = await kit[AGENTS[agent]](outDir);
console.log(`saved ${names.length} screens to ${outDir}: ${names.join(', ')}`);
