/**
 * The `collie` binary's first module (dist/collie.mjs). `collie walky …` is what agents run,
 * often, and every millisecond of its start is in their turn: it goes straight to its own
 * small CommonJS bundle (bridge/dist/walky.cjs: no argument parser, no schema library). The
 * binary an installed skill names is `bin/collie.cjs`, which does the same without this
 * module or the ES module loader. Every other verb loads the full command line
 * (dist/program.mjs).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function walky(): Promise<void> {
  const file = join(here, '..', '..', 'bridge', 'dist', 'walky.cjs');
  if (!existsSync(file)) throw new Error(`collie: walky talky is not built (${file} is missing): run npm run build`);
  const w: unknown = createRequire(import.meta.url)(file);
  if (typeof w !== 'object' || w === null || !('main' in w) || typeof w.main !== 'function') throw new Error('collie: the walky bundle has no main');
  await Promise.resolve(Reflect.apply(w.main, undefined, [process.argv.slice(3)]));
}

if (process.argv[2] === 'walky') {
  walky().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
} else {
  await import(pathToFileURL(join(here, 'program.mjs')).href);
}
