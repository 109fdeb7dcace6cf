// Builds every runnable piece: the bridge's commands, the CLI and the demo as single
// bundles (fast start, no TypeScript at run time), and the web app with Vite.
// `--app`: only what `npm start` and the installed package run (the bridge, the CLI, the ACP
// bridge, the web app), which needs no Nerve and no test kit installed.
import { join } from 'node:path';
import { root, sh } from './lib.mjs';

const esbuild = await import('esbuild');
// CommonJS dependencies bundled into ESM still call require() for node built-ins.
const banner = { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" };
const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', banner, logLevel: 'warning', sourcemap: 'linked', absWorkingDir: root };

const appOnly = process.argv.includes('--app');
const app = [
  esbuild.build({ ...common, entryPoints: ['packages/bridge/src/commands/index.ts'], outfile: 'packages/bridge/dist/commands.mjs', external: ['bufferutil', 'utf-8-validate', 'libsql'] }),
  // collie.mjs is a small first module: `collie walky` goes to walky.cjs without loading program.mjs.
  esbuild.build({ ...common, entryPoints: ['packages/cli/src/entry.ts'], outfile: 'packages/cli/dist/collie.mjs' }),
  esbuild.build({ ...common, entryPoints: ['packages/cli/src/main.ts'], outfile: 'packages/cli/dist/program.mjs' }),
  // `collie walky` alone: no server code, and CommonJS, so that `bin/collie.cjs` runs an agent's
  // call without starting the ES module loader at all (docs/walky.md, "The client's start").
  esbuild.build({ ...common, banner: undefined, format: 'cjs', entryPoints: ['packages/bridge/src/commands/walky/index.ts'], outfile: 'packages/bridge/dist/walky.cjs' }),
  esbuild.build({ ...common, entryPoints: ['packages/acp-bridge/src/cli.ts'], outfile: 'packages/acp-bridge/dist/acp.mjs' }),
];
const rest = () => [
  esbuild.build({
    ...common,
    entryPoints: { desk: 'packages/durable-sdk/examples/desk/main.ts', sdk: 'packages/durable-sdk/src/index.ts' },
    outdir: 'packages/durable-sdk/dist',
    outExtension: { '.js': '.mjs' },
  }),
  // Nerve: the SDK finds its `claude` binary beside its own files, and libsql is native.
  esbuild.build({
    ...common,
    entryPoints: { nerve: 'packages/nerve/src/cli/main.ts', 'bench-kit': 'packages/nerve/src/bench-kit.ts' },
    outdir: 'packages/nerve/dist',
    outExtension: { '.js': '.mjs' },
    external: ['bufferutil', 'utf-8-validate', '@anthropic-ai/claude-agent-sdk', 'libsql'],
  }),
  esbuild.build({
    ...common,
    entryPoints: { demo: 'packages/testkit/src/demo-main.ts', 'bench-kit': 'packages/testkit/src/bench-kit.ts' },
    outdir: 'packages/testkit/dist',
    outExtension: { '.js': '.mjs' },
    external: ['bufferutil', 'utf-8-validate', '@anthropic-ai/claude-agent-sdk', 'playwright-core', 'libsql'],
  }),
];
await Promise.all([...app, ...(appOnly ? [] : rest())]);
// NODE_ENV decides which React Vite bundles: a build run from a test (NODE_ENV=test) or a
// shell with NODE_ENV=development would otherwise serve React's development build.
process.exitCode = sh('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: join(root, 'packages', 'web'), env: { ...process.env, NODE_ENV: 'production' } });
