// Installs dependencies and builds what is missing or older than its sources.
// `npm start` and `npm test` run this first, so a fresh clone needs nothing else.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkNode, mtime, newest, root, sh } from './lib.mjs';

export function ensure({ quiet = false } = {}) {
  checkNode();
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed) || mtime(join(root, 'package-lock.json')) > mtime(installed) || mtime(join(root, 'package.json')) > mtime(installed)) {
    if (!quiet) console.log('collie: installing dependencies (npm install)…');
    if (sh('npm', ['install', '--no-audit', '--no-fund']) !== 0) {
      console.error('collie: npm install failed; see the output above.');
      process.exit(1);
    }
  }
  const outputs = ['packages/bridge/dist/commands.mjs', 'packages/cli/dist/collie.mjs', 'packages/testkit/dist/demo.mjs', 'packages/web/dist/index.html', 'packages/nerve/dist/nerve.mjs'];
  const built = Math.min(...outputs.map((f) => mtime(join(root, f))));
  const sources = Math.max(...['protocol', 'bridge', 'cli', 'web', 'testkit', 'nerve', 'durable-sdk'].map((p) => newest(join(root, 'packages', p))), newest(join(root, 'scripts')));
  if (built < sources) {
    if (!quiet) console.log('collie: building…');
    if (sh(process.execPath, [join(root, 'scripts', 'build.mjs')]) !== 0) process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensure();
