// `npm run capture -- <agent>`: drives the real agent offline and writes labelled screens into
// packages/bridge/src/harness/<agent>/captures/. The test kit is TypeScript: esbuild bundles it.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(pkg, '..', '..', 'node_modules', '.cache', 'collie-testkit', 'capture.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await build({ entryPoints: [join(pkg, 'src', 'capture', 'main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: bundle, logLevel: 'warning' });
const { captureMain } = await import(pathToFileURL(bundle).href);
process.exitCode = await captureMain(process.argv.slice(2));
