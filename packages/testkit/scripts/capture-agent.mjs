// Saves what the installed Codex or Gemini CLI draws into its reader's captures folder
// (packages/bridge/src/harness/<agent>/captures/), with labels.json, refreshing the corpus
// the reader's fixture table runs over. Usage: npm run capture-agent -w @collie/testkit -- <codex|gemini> [out dir]
// The test kit is TypeScript; esbuild bundles the entry next to node_modules so that package
// resolution from the bundle works as it does from the source.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const agents = { codex: 'captureCodexScreens', gemini: 'captureGeminiScreens' };
const agent = process.argv[2];
if (!(agent in agents)) {
  console.error(`capture-agent: name an agent: ${Object.keys(agents).join(' or ')}`);
  process.exit(2);
}
const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[3] ?? join(pkg, '..', 'bridge', 'src', 'harness', agent, 'captures'));
const bundle = join(pkg, '..', '..', 'node_modules', '.cache', 'collie-testkit', `capture-${agent}.mjs`);
mkdirSync(dirname(bundle), { recursive: true });
await build({
  entryPoints: [join(pkg, 'src', 'agents', agent, 'capture.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const mod = await import(pathToFileURL(bundle).href);
const names = await mod[agents[agent]](outDir);
console.log(`saved ${names.length} ${agent} screens to ${outDir}: ${names.join(', ')}`);
