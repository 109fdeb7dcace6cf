/**
 * Nerve in `collie demo`: a gateway on its own scripted Messages API, one session whose turn
 * starts two long background agents and a background shell, so a newcomer sees a live roster
 * (on the phone as the durable agent `nerve`, and on Nerve's own API).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startNerve, type Nerve } from '../../nerve/src/nerve';
import { CLAUDE_QUIET_ENV, FAKE_API_KEY } from './claude';
import { writeClaudeConfig } from './claude-config';
import { startMessagesApi, type MessagesApi } from './messages-api';
import type { Turn } from './messages-wire';

export interface DemoNerve {
  nerve: Nerve;
  api: MessagesApi;
  /** The demo session's id. */
  sessionId: string;
  stop(): Promise<void>;
}

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });
const spawn = (name: string, input: Record<string, unknown>): Turn => ({ blocks: [{ type: 'text', text: `Starting ${String(input.description)}.` }, { type: 'tool_use', name, input }] });

/**
 * Starts Nerve under `dir` with its durable socket there; the caller attaches it to the bridge.
 * `stateDir` (default `<dir>/state`): where nerve.db and api.json go; a bridge finds Nerve's API
 * at `<its state dir>/nerve/api.json`.
 */
export async function startDemoNerve(dir: string, log: (line: string) => void = () => undefined, stateDir = join(dir, 'state'), o: { agentMs?: number } = {}): Promise<DemoNerve> {
  // Each background agent works for `agentMs` (10 minutes), then reports what it found.
  const api = await startMessagesApi({ subagentFallback: () => say('Read the files: the tests cover the bridge, the CLI and the web app; nothing is failing.', o.agentMs ?? 10 * 60_000) });
  const work = join(dir, 'work');
  const claudeConfig = join(dir, 'claude-config');
  await mkdir(work, { recursive: true, mode: 0o700 });
  await writeClaudeConfig(claudeConfig, { cwd: work, apiKey: FAKE_API_KEY });
  const yaml = [
    'listen:',
    '  port: 0',
    `state_dir: ${JSON.stringify(stateDir)}`,
    `cwd: ${JSON.stringify(work)}`,
    `durable_socket: ${JSON.stringify(join(dir, 'nerve.sock'))}`,
    'env:',
    `  ANTHROPIC_BASE_URL: ${JSON.stringify(api.url)}`,
    `  ANTHROPIC_API_KEY: ${JSON.stringify(FAKE_API_KEY)}`,
    `  CLAUDE_CONFIG_DIR: ${JSON.stringify(claudeConfig)}`,
    `  HOME: ${JSON.stringify(join(claudeConfig, 'home'))}`,
    ...Object.entries(CLAUDE_QUIET_ENV).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`),
    'agent:',
    '  subagents:',
    '    progress_summaries: false',
  ].join('\n');
  const file = join(dir, 'config.yaml');
  await writeFile(file, `${yaml}\n`, { mode: 0o600 });
  api.script(
    () => spawn('Agent', { description: 'Survey the tests', prompt: 'List the test files', run_in_background: true, subagent_type: 'general-purpose' }),
    () => spawn('Agent', { description: 'Read the docs', prompt: 'Summarise the docs', run_in_background: true, subagent_type: 'general-purpose' }),
    () => spawn('Bash', { command: 'sleep 120', description: 'Watch the build', run_in_background: true }),
    () => say('Three background tasks are running; ask me anything meanwhile.'),
  );
  // A turn with no words of yours (the runtime woke the orchestrator when background work settled).
  api.setFallback((req) => say(req.prompt.trim() ? `You said: ${req.prompt.slice(0, 200)}` : 'The background work settled; each agent’s report is in its tab.'));
  const nerve = await startNerve({ configFile: file, defaultStateDir: stateDir, log });
  const session = nerve.gateway.create('Nerve demo: a live roster');
  session.send({ text: 'Start the background work', origin: 'internal' });
  return {
    nerve,
    api,
    sessionId: session.id,
    stop: async () => {
      await nerve.close();
      await api.close();
    },
  };
}
