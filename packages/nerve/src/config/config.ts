/**
 * config.yaml (spec "Configuration"): Nerve's own keys and `agent.subagents`. A bad file is
 * answered with the file, the key and what is wrong.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const SubagentSettings = z.strictObject({
  per_task_stop_affordance: z.boolean().default(true),
  progress_summaries: z.boolean().default(true),
  forward_subagent_text: z.boolean().default(true),
  quiet_after_minutes: z.number().positive().max(10_080).default(10),
  lost_grace_seconds: z.number().min(0).max(86_400).default(30),
  stop_confirm_seconds: z.number().min(0).max(86_400).default(10),
  transcript_item_max_bytes: z.number().int().min(256).max(16 * 1024 * 1024).default(16_384),
});
export type SubagentSettings = z.infer<typeof SubagentSettings>;

export const NerveConfig = z.strictObject({
  listen: z
    .strictObject({
      host: z.enum(['127.0.0.1', '::1', 'localhost']).default('127.0.0.1'),
      port: z.number().int().min(0).max(65_535).default(8799),
    })
    .prefault({}),
  state_dir: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  model: z.string().min(1).default('claude-sonnet-4-5'),
  /** The Claude binary; default: the one the Agent SDK installs. */
  claude_path: z.string().min(1).optional(),
  /** Extra environment for the runtime (e.g. ANTHROPIC_BASE_URL for a scripted API). */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string()).default({}),
  /**
   * A session's runtime with no turn, no queued message and no live agent for this long is shut
   * down (the next message starts a new one on the same session); null: never. A runtime with
   * live agents is never reaped. Read at each tick: applies without a restart.
   */
  idle_reap_minutes: z.number().min(0).max(10_080).nullable().default(60),
  /** Where Nerve serves wire v1 for Collie (a unix socket path); none: not attached. */
  durable_socket: z.string().min(1).optional(),
  agent: z.strictObject({ subagents: SubagentSettings.prefault({}) }).prefault({}),
});
export type NerveConfig = z.infer<typeof NerveConfig>;

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly key: string,
    readonly problem: string,
  ) {
    super(`${file}: ${key || '(top level)'}: ${problem}`);
  }
}

/** Parses config text; throws {@link ConfigError} naming the first wrong key. */
export function parseConfig(text: string, file: string): NerveConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text, { logLevel: 'error' }) ?? {};
  } catch (err) {
    throw new ConfigError(file, '', `not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(file, '', 'expected a mapping of keys');
  const r = NerveConfig.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const key = issue.path.join('.');
  const problem = issue.code === 'unrecognized_keys' ? `unknown key ${issue.keys.join(', ')}` : issue.message;
  throw new ConfigError(file, key, problem);
}

export function loadConfig(file: string): NerveConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, '', `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseConfig(text, file);
}
