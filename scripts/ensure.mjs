// Installs dependencies and builds what is missing or older than its sources.
// `npm start` and `npm test` run this first, so a fresh clone needs nothing else.
//
// Two scopes. `app` (npm start): the workspaces that run (protocol, bridge, CLI, web app, the
// durable SDK and the ACP bridge) and what builds them, with `npm install --workspace …`: no
// Nerve, so not the Claude Agent SDK's 433 MB binary. `all` (npm test, npm run build, the
// benchmarks): every workspace. The real agents the tests drive are neither: scripts/agents.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNode, mtime, newest, root, sh } from './lib.mjs';

export const APP_WORKSPACES = ['protocol', 'durable-sdk', 'bridge', 'cli', 'web', 'acp-bridge'];
const ALL_WORKSPACES = [...APP_WORKSPACES, 'nerve', 'testkit'];

/** What `build.mjs --app` writes (the running pieces) and what the full build adds. */
export const APP_OUTPUTS = ['packages/bridge/dist/commands.mjs', 'packages/bridge/dist/walky.cjs', 'packages/cli/dist/collie.mjs', 'packages/cli/dist/program.mjs', 'packages/acp-bridge/dist/acp.mjs', 'packages/web/dist/index.html'];
const ALL_OUTPUTS = [...APP_OUTPUTS, 'packages/testkit/dist/demo.mjs', 'packages/nerve/dist/nerve.mjs', 'packages/durable-sdk/dist/sdk.mjs'];

/** node_modules/.collie-install: which scope the last install covered. */
const marker = join(root, 'node_modules', '.collie-install');

function installed(scope) {
  if (!existsSync(marker)) return false;
  const had = readFileSync(marker, 'utf8').trim();
  if (scope === 'all' && had !== 'all') return false;
  const manifests = ['package.json', 'package-lock.json', ...ALL_WORKSPACES.map((p) => `packages/${p}/package.json`)];
  const at = mtime(marker);
  return manifests.every((f) => mtime(join(root, f)) <= at);
}

export function ensure({ quiet = false, scope = 'all' } = {}) {
  checkNode();
  if (!installed(scope)) {
    const args = ['install', '--no-audit', '--no-fund'];
    if (scope === 'app') args.push('--include-workspace-root', ...APP_WORKSPACES.map((p) => `--workspace=packages/${p}`));
    if (!quiet) console.log(scope === 'app' ? 'collie: installing what the bridge, the CLI and the web app need (npm install --workspace …)…' : 'collie: installing every workspace (npm install)…');
    if (sh('npm', args) !== 0) {
      console.error('collie: npm install failed; see the output above.');
      process.exit(1);
    }
    writeFileSync(marker, `${scope}\n`);
  }
  const outputs = scope === 'app' ? APP_OUTPUTS : ALL_OUTPUTS;
  const built = Math.min(...outputs.map((f) => mtime(join(root, f))));
  const packages = scope === 'app' ? APP_WORKSPACES : ALL_WORKSPACES;
  const sources = Math.max(...packages.map((p) => newest(join(root, 'packages', p))), newest(join(root, 'scripts')));
  if (built < sources) {
    if (!quiet) console.log('collie: building…');
    if (sh(process.execPath, [join(root, 'scripts', 'build.mjs'), ...(scope === 'app' ? ['--app'] : [])]) !== 0) process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensure({ scope: process.argv[2] === '--app' ? 'app' : 'all' });
