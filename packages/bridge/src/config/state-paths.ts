/**
 * Where this instance's files are: the config dir, its `.env` merged under the real
 * environment, and the state dir. No settings schema here, so `collie walky` can find its
 * socket without loading the validator (see scripts/build.mjs, dist/walky.cjs).
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseDotenv } from './dotenv';
import { configDirOf, instanceName, PathError, stateDirOf, type Env } from './paths';

// These choose which `.env` is read, so a `.env` cannot set them.
const ENV_ONLY = ['COLLIE_CONFIG_DIR', 'COLLIE_INSTANCE'];

function readEnvFile(path: string, warnings: string[]): Record<string, string> {
  let text: string;
  try {
    const st = statSync(path);
    // The file may hold API keys: say so when other users can read it.
    if (st.isFile() && (st.mode & 0o077) !== 0) {
      warnings.push(`${path}: readable by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 on it`);
    }
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') warnings.push(`${path}: not read (${code ?? String(err)})`);
    return {};
  }
  const { vars, problems } = parseDotenv(text);
  for (const p of problems) warnings.push(`${path}:${p.line}: ${p.message}; line skipped`);
  const out: Record<string, string> = { ...vars };
  for (const name of ENV_ONLY) {
    if (name in out) {
      warnings.push(`${path}: ${name} is ignored in .env; set it in the environment`);
      delete out[name];
    }
  }
  return out;
}

/** `f()`, or its PathError recorded and `fallback`. */
export function attempt<T>(errors: string[], fallback: T, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof PathError) errors.push(err.message);
    else throw err;
    return fallback;
  }
}

export interface StatePaths {
  errors: string[];
  warnings: string[];
  instance: string | null;
  configDir: string;
  envFile: string;
  /** `.env` under the real environment (an empty variable counts as unset). */
  merged: Record<string, string>;
  stateDir: string;
}

export function statePaths(env: Env, deps: { readonly home?: string } = {}): StatePaths {
  const errors: string[] = [];
  const warnings: string[] = [];
  const home = deps.home ?? (env['HOME'] || homedir());
  const instance = attempt(errors, null, () => instanceName(env));
  const configDir = attempt(errors, '', () => configDirOf(env, home, instance));
  const envFile = join(configDir, '.env');
  const fileVars = configDir === '' ? {} : readEnvFile(envFile, warnings);
  const merged: Record<string, string> = { ...fileVars };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') merged[k] = v;
  const stateDir = attempt(errors, '', () => stateDirOf(merged, home, instance));
  return { errors, warnings, instance, configDir, envFile, merged, stateDir };
}
