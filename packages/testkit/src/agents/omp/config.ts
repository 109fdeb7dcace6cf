import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { agentPackageDir, INSTALL_AGENTS } from '../installed';

/** What an omp agent dir is prepared for. */
export interface OmpConfigOptions {
  /** The scripted chat API's base URL (`…/v1`). */
  baseUrl: string;
  /**
   * `tools.approvalMode`: `write` (the testkit's default) asks before exec tools such as bash;
   * omp's own default, `yolo`, never asks.
   */
  approvalMode?: 'always-ask' | 'write' | 'yolo';
}

/**
 * Writes an isolated omp agent dir (given as `PI_CODING_AGENT_DIR`): `models.yml` with one
 * OpenAI-completions provider at the scripted API, and `config.yml` choosing its model as the
 * default role, with the setup wizard, the update check, plugin update checks and the startup
 * splash off. (JSON is YAML, so both are written as JSON.)
 *
 * @example
 * await writeOmpConfig(dir, { baseUrl: api.url });
 */
export async function writeOmpConfig(dir: string, opts: OmpConfigOptions): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const models = {
    providers: {
      fake: {
        baseUrl: opts.baseUrl,
        api: 'openai-completions',
        apiKey: 'sk-test-0000',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'fake-coder', name: 'Fake Coder', reasoning: false, input: ['text'], contextWindow: 128_000, maxTokens: 8_192 }],
      },
    },
  };
  const config = {
    setupVersion: 2,
    startup: { setupWizard: false, checkUpdate: false, showSplash: false },
    marketplace: { autoUpdate: 'off' },
    modelRoles: { default: 'fake/fake-coder' },
    tools: { approvalMode: opts.approvalMode ?? 'write' },
  };
  await writeFile(join(dir, 'models.yml'), JSON.stringify(models, null, 2), { mode: 0o600 });
  await writeFile(join(dir, 'config.yml'), JSON.stringify(config, null, 2), { mode: 0o600 });
}

const OMP_PACKAGE = '@oh-my-pi/pi-coding-agent';


/** The omp CLI (`dist/cli.js` of `@oh-my-pi/pi-coding-agent`) and the Bun that runs it. */
export interface OmpCommand {
  bun: string;
  cli: string;
  version: string;
}

/**
 * The installed omp and Bun, or why omp cannot run here (the exact reason, for a skipped test).
 * Both are among the agent programs of packages/testkit/agents; `bun`'s package carries the native binary as
 * `bin/bun.exe` even with install scripts blocked.
 */
export function ompCommand(): OmpCommand | { missing: string } {
  const omp = agentPackageDir(OMP_PACKAGE);
  if (!omp) return { missing: `${OMP_PACKAGE} is not installed (${INSTALL_AGENTS})` };
  const bunDir = agentPackageDir('bun');
  const bun = bunDir ? join(bunDir, 'bin', 'bun.exe') : '';
  if (!bun || !existsSync(bun)) return { missing: `bun is not installed (${INSTALL_AGENTS}); omp runs only under Bun` };
  const version = (createRequire(import.meta.url)(join(omp, 'package.json')) as { version: string }).version;
  return { bun, cli: join(omp, 'dist', 'cli.js'), version };
}
