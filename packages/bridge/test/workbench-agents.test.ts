import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewOptions } from '@collie/protocol';
import { startTmux, tempDir, type TempDir, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';

/** Where the real agents the tests drive are installed (packages/testkit/agents, `npm test` installs them). */
const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'testkit', 'agents', 'node_modules', '.bin');
const AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'pi', 'omp'] as const;

/**
 * The New page's agents: each of the known agents found on PATH, with what its own `--version`
 * says (the real programs, whichever stream they print on), then the shell; none when PATH
 * holds none of them.
 */
describe('new: the agents installed, found on PATH with their versions (the real programs)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let bridge: TestBridge;
  let bare: TestBridge;
  let bareState: TempDir;

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    bareState = await tempDir('collie-state');
    await tmux.newSession('home', { cmd: 'cat' });
    bridge = await bridgeFor(tmux.tmpDir, state.path, { env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, PATH: `${BIN}:/usr/bin:/bin`, SHELL: '/bin/sh' } });
    bare = await bridgeFor(tmux.tmpDir, bareState.path, { env: { ...process.env, TMUX_TMPDIR: tmux.tmpDir, PATH: '/usr/bin:/bin', SHELL: '/bin/sh' } });
    await until(bridge.hub, 'the first pane', (h) => h.panes.size > 0, 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await bare?.stop();
    await tmux?.kill();
    await state?.remove();
    await bareState?.remove();
  });

  const offered = async (b: TestBridge) => {
    const res = await fetch(`${b.url}/api/new`, { headers: b.device.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    return NewOptions.parse(await res.json()).launchers;
  };

  it('offers every agent installed, in the known order, with its version; pi says it on stderr', async () => {
    const installed = AGENTS.filter((a) => existsSync(join(BIN, a)) && !existsSync(join('/usr/bin', a)));
    expect(installed).toEqual(expect.arrayContaining(['codex', 'pi', 'omp']));
    // An agent slow to answer under load is asked again on the next read, so read until each has spoken.
    await expect
      .poll(async () => (await offered(bridge)).filter((l) => l.source === 'agent' && l.version !== null).map((l) => l.name), { timeout: 60_000, interval: 1000 })
      .toEqual(installed);
    const launchers = await offered(bridge);
    expect(launchers.find((l) => l.name === 'pi')?.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(launchers.find((l) => l.name === 'codex')?.version).toMatch(/^codex-cli \d+\.\d+\.\d+$/);
    expect(launchers.at(-1)).toEqual({ name: 'shell', command: ['/bin/sh'], source: 'shell', version: null });
  }, 90_000);

  it('offers only the shell when PATH holds no agent', async () => {
    const launchers = await offered(bare);
    expect(launchers.map((l) => l.name).filter((n) => n !== 'claude')).toEqual(['shell']);
  });
});
