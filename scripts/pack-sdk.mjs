// `npm run pack:sdk [-- <dir>]`: the durable agent SDK as a package of its own,
// `collie-durable-sdk-<version>.tgz` (in <dir>, default .artifacts/), so an agent author installs
// it alone: the SDK as one ES module with the protocol's schemas bundled in (zod, its one
// dependency, stays a dependency), its types (the SDK's and the protocol's declarations), the
// README, and the example agent `desk` as source and built (`node dist/desk.mjs <socket|port>`).
// Prints the tarball's path.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { root, sh } from './lib.mjs';

const out = resolve(process.argv[2] ?? join(root, '.artifacts'));
const sdkDir = join(root, 'packages', 'durable-sdk');
const sdk = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'));
const stage = mkdtempSync(join(tmpdir(), 'collie-pack-sdk-'));
try {
  const esbuild = await import('esbuild');
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning', absWorkingDir: root, external: ['zod'] };
  await esbuild.build({ ...common, entryPoints: ['packages/durable-sdk/src/index.ts'], outfile: join(stage, 'dist/index.mjs') });
  // The example runs against the package itself, as an author's program would.
  await esbuild.build({ ...common, entryPoints: ['packages/durable-sdk/examples/desk/main.ts'], outfile: join(stage, 'dist/desk.mjs'), plugins: [selfImport()] });

  // Declarations of the SDK and of the protocol it names, with their imports made relative.
  const types = join(stage, 'types');
  const code = sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(sdkDir, 'tsconfig.json'), '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--rootDir', join(root, 'packages'), '--outDir', types]);
  if (code !== 0) process.exit(code);
  // The protocol is reached through node_modules, where tsc emits nothing: its own run.
  const proto = sh(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'packages/protocol/tsconfig.json'), '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--rootDir', join(root, 'packages/protocol'), '--outDir', join(types, 'protocol')]);
  if (proto !== 0) process.exit(proto);
  rmSync(join(types, 'protocol', 'test'), { recursive: true, force: true });
  rmSync(join(types, 'durable-sdk', 'test'), { recursive: true, force: true });
  rmSync(join(types, 'durable-sdk', 'examples'), { recursive: true, force: true });
  for (const file of walk(types)) writeFileSync(file, relativeImports(file, readFileSync(file, 'utf8'), types));

  mkdirSync(join(stage, 'examples/desk'), { recursive: true });
  for (const f of ['desk.ts', 'main.ts']) {
    const text = readFileSync(join(sdkDir, 'examples/desk', f), 'utf8').replace(/'(?:\.\.\/\.\.\/src\/index|@collie\/protocol)'/g, "'@collie/durable-sdk'");
    writeFileSync(join(stage, 'examples/desk', f), text);
  }
  cpSync(join(sdkDir, 'README.md'), join(stage, 'README.md'));
  const pkg = {
    name: sdk.name,
    version: sdk.version,
    description: sdk.description,
    license: 'UNLICENSED',
    type: 'module',
    exports: { '.': { types: './types/durable-sdk/src/index.d.ts', import: './dist/index.mjs' } },
    types: './types/durable-sdk/src/index.d.ts',
    engines: { node: '>=20.19' },
    dependencies: { zod: sdk.dependencies.zod },
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  if (sh('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) process.exit(1);
  console.log(join(out, `collie-durable-sdk-${sdk.version}.tgz`));
} finally {
  rmSync(stage, { recursive: true, force: true });
}

/** esbuild: the example's imports of the SDK's source become imports of the package. */
function selfImport() {
  return {
    name: 'self-import',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/\.\.\/src\/index$/ }, () => ({ path: './index.mjs', external: true }));
    },
  };
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (p.endsWith('.d.ts')) yield p;
  }
}

/** `@collie/protocol` → the protocol's declarations here; `./x` → `./x.js` or `./x/index.js` (node16 and bundler resolution alike). */
function relativeImports(file, text, types) {
  const here = dirname(file);
  return text.replace(/(from |import\()(['"])([^'"]+)\2/g, (all, lead, q, spec) => {
    let target = null;
    if (spec === '@collie/protocol') target = join(types, 'protocol/src/index');
    else if (spec.startsWith('@collie/protocol/')) target = join(types, 'protocol/src', spec.slice('@collie/protocol/'.length));
    else if (spec.startsWith('.')) target = join(here, spec);
    if (!target) return all;
    const js = existsSync(`${target}.d.ts`) ? `${target}.js` : existsSync(join(target, 'index.d.ts')) ? join(target, 'index.js') : null;
    if (!js) return all;
    let rel = relative(here, js);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `${lead}${q}${rel}${q}`;
  });
}
