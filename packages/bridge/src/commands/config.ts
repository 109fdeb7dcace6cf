import { loadConfig, type Config } from '../config';

/** The configuration, or an error that names every bad setting. Warnings go to stderr. */
export function configOrThrow(env: NodeJS.ProcessEnv, warn: (line: string) => void = (l) => void process.stderr.write(`collie: ${l}\n`)): Config {
  const loaded = loadConfig(env);
  for (const w of loaded.warnings) warn(w);
  if (!loaded.ok) throw new Error(`collie: the configuration is not usable:\n  ${loaded.errors.join('\n  ')}`);
  return loaded.config;
}
