/**
 * A Nerve gateway on a temp state dir, running the real Agent SDK and the real `claude` binary
 * against the testkit's scripted Messages API on loopback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentRecord, NerveEventFrame } from '@collie/protocol';
import { CLAUDE_QUIET_ENV, FAKE_API_KEY, repoRoot, startMessagesApi, tempDir, writeClaudeConfig, type MessagesApi, type TempDir } from '@collie/testkit';
import { SubagentSettings } from '../src/config/config';
import { Gateway } from '../src/gateway/gateway';
import { openDb } from '../src/store/db';
import { Store } from '../src/store/store';

/** Variables that would point the CLI elsewhere or make it think it runs inside another session. */
const UNSET = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_MODEL', 'CI', 'CONTINUOUS_INTEGRATION'];

export interface Rig extends AsyncDisposable {
  api: MessagesApi;
  dir: TempDir;
  gateway: Gateway;
  store: Store;
  dbPath: string;
  env: Record<string, string | undefined>;
  settings: SubagentSettings;
  frames: NerveEventFrame[];
  /** Resolves with the first event frame, past or future, that matches. */
  waitFor(match: (f: NerveEventFrame) => boolean, timeoutMs?: number): Promise<NerveEventFrame>;
  /** Resolves when a session's roster holds a record that matches. */
  waitForAgent(sessionId: string, match: (r: AgentRecord) => boolean, timeoutMs?: number): Promise<AgentRecord>;
}

export async function claudeEnv(api: MessagesApi, dir: string): Promise<Record<string, string | undefined>> {
  const config = join(dir, 'claude-config');
  const cwd = join(dir, 'work');
  await mkdir(cwd, { recursive: true });
  await writeClaudeConfig(config, { cwd, apiKey: FAKE_API_KEY });
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of UNSET) delete env[k];
  return {
    ...env,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    CLAUDE_CONFIG_DIR: config,
    ...CLAUDE_QUIET_ENV,
    HOME: join(config, 'home'),
  };
}

export async function startRig(overrides: Partial<SubagentSettings> = {}, opts: { idleReapMinutes?: () => number | null } = {}): Promise<Rig> {
  const api = await startMessagesApi();
  const dir = await tempDir('nerve-test-');
  const env = await claudeEnv(api, dir.path);
  const dbPath = join(dir.path, 'state', 'nerve.db');
  const store = new Store(openDb(dbPath));
  const settings = SubagentSettings.parse({ progress_summaries: false, ...overrides });
  const frames: NerveEventFrame[] = [];
  const gateway = new Gateway({ store, cwd: join(dir.path, 'work'), model: 'claude-sonnet-4-5', env, settings: () => settings, ...(opts.idleReapMinutes ? { idleReapMinutes: opts.idleReapMinutes } : {}) });
  const waiters = new Set<() => void>();
  gateway.subscribe((f) => {
    frames.push(f);
    for (const w of waiters) w();
  });
  const until = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const run = () => {
        const v = check();
        if (v === undefined) return;
        waiters.delete(run);
        clearTimeout(t);
        resolve(v);
      };
      const t = setTimeout(() => {
        waiters.delete(run);
        reject(new Error(`timed out waiting for ${what}; last events: ${JSON.stringify(frames.slice(-8).map((f) => f.event))}`));
      }, timeoutMs);
      waiters.add(run);
      run();
    });
  const close = async () => {
    await gateway.close();
    store.db.close();
    await api.close();
    await dir.remove();
  };
  return {
    api,
    dir,
    gateway,
    store,
    dbPath,
    env,
    settings,
    frames,
    waitFor: (match, timeoutMs = 60_000) => until(() => frames.find(match), 'an event', timeoutMs),
    waitForAgent: (sessionId, match, timeoutMs = 60_000) => until(() => gateway.sessions.get(sessionId)?.roster.list().find(match), 'an agent record', timeoutMs),
    [Symbol.asyncDispose]: close,
  };
}

/** `nerve serve --config <config>` as a child process of the test (the built `dist/nerve.mjs`), once it listens. */
export async function startNerveProcess(config: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'packages/nerve/dist/nerve.mjs'), 'serve', '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`nerve did not start: ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /nerve listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`nerve exited ${code}: ${err}`)));
  });
  return { child, url };
}

/** Processes whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(marker)) found.push(Number(pid));
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}
