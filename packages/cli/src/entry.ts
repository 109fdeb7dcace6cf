/**
 * The `collie` binary's first module. `collie walky …` is what agents run, often, and every
 * millisecond of its start is in their turn: it goes straight to its own small bundle
 * (bridge/dist/walky.mjs: no argument parser, no schema library). Every other verb loads the
 * full command line (dist/program.mjs).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function walky(): Promise<void> {
  const file = join(here, '..', '..', 'bridge', 'dist', 'walky.mjs');
  if (!existsSync(file)) throw new Error(`collie: walky talky is not built (${file} is missing): run npm run build`);
  const w: unknown = await import(pathToFileURL(file).href);
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
