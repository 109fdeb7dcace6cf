// `npm run capture -- <agent>`: drives the real agent offline and writes labelled screens into
// packages/bridge/src/harness/<agent>/captures/. The test kit is TypeScript: esbuild bundles it.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureAgents } from '../../../scripts/agents.mjs';
import { ensure } from '../../../scripts/ensure.mjs';

// Every workspace (Claude Code's binary comes with Nerve's Agent SDK) and the real agents.
ensure();
ensureAgents({ why: 'npm run capture drives them' });
const { build } = await import('esbuild');
const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(pkg, '..', '..', 'node_modules', '.cache', 'collie-testkit', 'capture.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await build({ entryPoints: [join(pkg, 'src', 'capture', 'main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: bundle, logLevel: 'warning' });
const { captureMain } = await import(pathToFileURL(bundle).href);
process.exitCode = await captureMain(process.argv.slice(2));
