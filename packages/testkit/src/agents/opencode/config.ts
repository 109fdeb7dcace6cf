import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SCRIPTED_PRICES } from '../pi/config';

/** What an OpenCode config is prepared for. */
export interface OpencodeConfigOptions {
  /** The scripted API's base URL (`…/v1`). */
  baseUrl: string;
  /**
   * Permission per tool. Stock OpenCode 1.18 runs bash and edits without asking; `ask` brings
   * back the "△ Permission required" prompt people who configure it see. Default: bash and
   * edit `ask`.
   */
  permission?: Record<string, 'ask' | 'allow' | 'deny'>;
}

/** The model id the testkit's provider offers, as `provider/model`. */
export const OPENCODE_MODEL = 'fake/fake-coder';

/**
 * Writes an OpenCode config file (given as `OPENCODE_CONFIG`) with one OpenAI-compatible
 * provider pointed at the scripted API. `@ai-sdk/openai-compatible` is bundled in the binary,
 * so nothing is downloaded. `autoupdate: false` and `share: "disabled"` are the documented
 * switches; the environment the launcher sets turns off the rest (models.dev fetch, LSP
 * downloads, default plugins).
 *
 * @example
 * const file = await writeOpencodeConfig(dir, { baseUrl: api.url });
 */
export async function writeOpencodeConfig(dir: string, opts: OpencodeConfigOptions): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    permission: opts.permission ?? { bash: 'ask', edit: 'ask' },
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: opts.baseUrl, apiKey: 'sk-test-0000' },
        models: { 'fake-coder': { name: 'Fake Coder', tool_call: true, limit: { context: 128_000, output: 8_192 }, cost: { input: SCRIPTED_PRICES.input, output: SCRIPTED_PRICES.output } } },
      },
    },
  };
  const file = join(dir, 'opencode.json');
  await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return file;
}
