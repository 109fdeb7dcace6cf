// `npm run pack [-- <dir>]`: the one package a user installs, `collie-<version>.tgz` (in <dir>,
// default .artifacts/): the CLI, the bridge, the ACP bridge and the built web app, as bundles.
// It keeps the repository's layout of built pieces (packages/<name>/dist/…), so every path the
// commands compute from their own file (the web app, the CLI's entry for `collie start`, the
// `collie` a skill pins) holds in the installed package as in a clone. Its only dependencies
// are what cannot be bundled: libsql (native, per platform) and qrcode-terminal (loaded by
// path). Built with `build.mjs --app` first. Prints the tarball's path.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensure } from './ensure.mjs';
import { root, sh } from './lib.mjs';

const out = resolve(process.argv[2] ?? join(root, '.artifacts'));
ensure({ scope: 'app', quiet: true });

const read = (p) => JSON.parse(readFileSync(join(root, p), 'utf8'));
const cli = read('packages/cli/package.json');
const bridge = read('packages/bridge/package.json');
const stage = mkdtempSync(join(tmpdir(), 'collie-pack-'));
try {
  const copy = (from, opts = {}) => cpSync(join(root, from), join(stage, from), { recursive: true, ...opts });
  const noMaps = { filter: (f) => !f.endsWith('.map') };
  copy('packages/cli/bin/collie.cjs');
  for (const f of ['collie.mjs', 'program.mjs']) copy(`packages/cli/dist/${f}`);
  for (const f of ['commands.mjs', 'walky.cjs']) copy(`packages/bridge/dist/${f}`);
  copy('packages/acp-bridge/dist/acp.mjs');
  copy('packages/web/dist', noMaps);
  // The bridge finds its package root by this file (packages/bridge/src/commands/paths.ts).
  writeFileSync(join(stage, 'packages/bridge/package.json'), `${JSON.stringify({ name: '@collie/bridge', version: bridge.version, private: true, type: 'module' }, null, 2)}\n`);
  const pkg = {
    name: 'collie',
    version: cli.version,
    description: 'See which coding agent waits on you, from your phone: the collie command, the bridge and its web app.',
    license: 'UNLICENSED',
    bin: { collie: 'packages/cli/bin/collie.cjs' },
    engines: { node: '>=20.19' },
    os: ['linux', 'darwin'],
    dependencies: { libsql: bridge.dependencies.libsql, 'qrcode-terminal': bridge.dependencies['qrcode-terminal'] },
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(stage, 'README.md'), readFileSync(join(root, 'README.md'), 'utf8'));
  mkdirSync(out, { recursive: true });
  if (sh('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) process.exit(1);
  console.log(join(out, `collie-${cli.version}.tgz`));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
