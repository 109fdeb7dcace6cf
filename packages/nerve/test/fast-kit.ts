/**
 * The fast tier's rig: a real gateway and SQLite file, the real Agent SDK, and the testkit's
 * scripted stand-in for the `claude` stream-json CLI in place of the binary.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot, tempDir } from '@collie/testkit';
import { SubagentSettings } from '../src/config/config';
import { Gateway } from '../src/gateway/gateway';
import { openDb } from '../src/store/db';
import { Store } from '../src/store/store';

export const FAKE = join(repoRoot, 'packages/testkit/fake-agent/claude-stream-json.mjs');
export const assistant = (content: unknown[]) => ({ type: 'assistant', message: { id: `msg_${Math.random().toString(16).slice(2)}`, role: 'assistant', model: 'fake', content }, parent_tool_use_id: null });

export async function fastRig(turns: unknown[], o: { settings?: Partial<SubagentSettings>; now?: () => number; script?: Record<string, unknown> } = {}) {
  const dir = await tempDir('nerve-fast-');
  const scriptFile = join(dir.path, 'script.json');
  const log = join(dir.path, 'cli.log');
  await writeFile(scriptFile, JSON.stringify({ ...o.script, turns }));
  const store = new Store(openDb(join(dir.path, 'nerve.db')));
  const settings = SubagentSettings.parse({ progress_summaries: false, ...o.settings });
  const gateway = new Gateway({ store, cwd: dir.path, model: 'fake', env: { ...process.env, FAKE_CLAUDE_SCRIPT: scriptFile, FAKE_CLAUDE_LOG: log }, settings: () => settings, claudePath: FAKE, ...(o.now ? { now: o.now } : {}) });
  return {
    gateway,
    store,
    /** The user messages the CLI received, in order, and whether a turn still ran then. */
    received: async (): Promise<{ text: string; duringTurn: boolean }[]> =>
      (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { text: string; duringTurn: boolean }),
    async [Symbol.asyncDispose]() {
      await gateway.close();
      store.db.close();
      await dir.remove();
    },
  };
}

/** Waits for a condition (checked every 20 ms), failing with what it waited for. */
export const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

