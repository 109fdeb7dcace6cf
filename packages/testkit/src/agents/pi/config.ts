import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentPackageDir, INSTALL_AGENTS } from '../installed';

/** What a pi agent dir is prepared for. */
export interface PiConfigOptions {
  /** The scripted API's base URL (`…/v1`). */
  baseUrl: string;
  /**
   * Stock pi never asks ("No permission popups" in its README). pi ships example extensions
   * that do; these are copied into the agent dir's `extensions/`. Default: `permission-gate.ts`
   * (asks before `rm -rf`, `sudo`, `chmod 777`).
   */
  extensions?: string[];
}

/** US dollars per million tokens of the scripted model, so pi records a known cost (usage tests check it). */
export const SCRIPTED_PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } as const;

/**
 * Writes an isolated pi agent dir (given as `PI_CODING_AGENT_DIR`): `models.json` with one
 * OpenAI-completions provider pointed at the scripted API, `settings.json` choosing it (so
 * there is no login or model picker), and the example extensions that make pi ask.
 *
 * @example
 * await writePiConfig(dir, { baseUrl: api.url });
 */
export async function writePiConfig(dir: string, opts: PiConfigOptions): Promise<void> {
  await mkdir(join(dir, 'extensions'), { recursive: true, mode: 0o700 });
  const models = {
    providers: {
      fake: {
        baseUrl: opts.baseUrl,
        api: 'openai-completions',
        apiKey: 'sk-test-0000',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'fake-coder', name: 'Fake Coder', reasoning: false, input: ['text'], contextWindow: 128_000, maxTokens: 8_192, cost: SCRIPTED_PRICES }],
      },
    },
  };
  const settings = { defaultProvider: 'fake', defaultModel: 'fake-coder', enableInstallTelemetry: false };
  await writeFile(join(dir, 'models.json'), JSON.stringify(models, null, 2), { mode: 0o600 });
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  const examples = join(piPackageDir(), 'examples', 'extensions');
  for (const name of opts.extensions ?? ['permission-gate.ts']) await copyFile(join(examples, name), join(dir, 'extensions', name));
}

const PI_PACKAGE = '@mariozechner/pi-coding-agent';

/**
 * The installed `@mariozechner/pi-coding-agent` package directory. Its `exports` map has only
 * an `import` condition and no `./package.json`, so it is looked up along the resolution paths.
 */
export function piPackageDir(): string {
  const found = agentPackageDir(PI_PACKAGE);
  if (!found) throw new Error(`testkit: ${PI_PACKAGE} is not installed (${INSTALL_AGENTS})`);
  return found;
}
