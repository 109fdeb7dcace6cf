// Shared by the npm scripts. Node built-ins only: these run before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

/** Newest mtime of the files below `dir` (skipping node_modules and dist). */
export function newest(dir) {
  if (!existsSync(dir)) return 0;
  const s = statSync(dir);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    max = Math.max(max, newest(join(dir, name)));
  }
  return max;
}

export function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Collie needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
    process.exit(1);
  }
}
