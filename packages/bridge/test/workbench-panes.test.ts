import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@collie/protocol';
import { longTurn, type ClaudePane, type MessagesApi, type TmuxServer } from '@collie/testkit';
import { type TestBridge, until } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';

describe('renaming and closing panes (real tmux, a shell pane and the real Claude Code TUI)', () => {
  let rig: LiveClaude;
  let tmux: TmuxServer, api: MessagesApi, bridge: TestBridge, claude: ClaudePane;
  let shellPane = '';

  const post = (id: string, verb: 'rename' | 'close', body: unknown) =>
    fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}/${verb}`, { method: 'POST', headers: { 'content-type': 'application/json', ...bridge.device.headers }, body: JSON.stringify(body) });

  // The name is the pane's label (the tmux window keeps its own): read from the bridge's model.
  const labelNow = () => bridge.hub.panes.get(`${tmux.name}:${shellPane}`)?.label;

  beforeAll(async () => {
    rig = await liveClaude({
      before: async ({ tmux }) => void (shellPane = await tmux.newSession('plain', { cmd: 'sh' })),
      ready: { what: 'both panes', check: (h, id) => h.panes.has(`${id.slice(0, id.lastIndexOf(':'))}:${shellPane}`) && h.panes.get(id)?.harness === 'claude' },
    });
    ({ tmux, api, bridge, claude } = rig);
  }, 90_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  it('names the pane, taking the name literally (quotes, #{formats}, ##); the window keeps its name', async () => {
    const id = `${tmux.name}:${shellPane}`;
    const before = bridge.hub.panes.get(id)?.windowName;
    const name = `fix "login" #{pane_id} ## it's`;
    const res = await post(id, 'rename', { name });
    expect(res.status, await res.clone().text()).toBe(200);
    await until(bridge.hub, 'the new label', (h) => h.panes.get(id)?.label === name && h.panes.get(id)?.named === true, 15_000);
    expect(bridge.hub.panes.get(id)?.windowName).toBe(before);
    const back = await post(id, 'rename', { name: null });
    expect(back.status, await back.clone().text()).toBe(200);
    expect(bridge.hub.panes.get(id)?.named).toBe(false);
  });

  // The property below once failed now and then: a bare `$` or a word starting with `%` made
  // tmux's parser fail (`$`, `a$`, `%a`) or expand a variable (`a$HOME`); they are quoted now.
  it.each(['$', 'a$', '$$', 'a$HOME', '%a', 'x%', '$1x'])('names it %j literally', async (name) => {
    const id = `${tmux.name}:${shellPane}`;
    const res = await post(id, 'rename', { name });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(labelNow()).toBe(name);
  });

  it('refuses bad names with a clear error, whatever they hold', async () => {
    const id = `${tmux.name}:${shellPane}`;
    for (const bad of ['', ' x', '-k', 'a\nb', 'a\u202Eb', 'x'.repeat(61), 'a #[fg=red]']) {
      const res = await post(id, 'rename', { name: bad });
      expect(res.status, `${JSON.stringify(bad)}: ${await res.clone().text()}`).toBe(400);
      expect(ErrorBody.parse(await res.json()).error.code).toBe('bad_request');
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 70 }), async (name) => {
        const res = await post(id, 'rename', { name });
        expect([200, 400], `${JSON.stringify(name)}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
        if (res.status === 200) expect(labelNow()).toBe(name);
      }),
      { numRuns: 40 },
    );
    expect((await post(`${tmux.name}:%999`, 'rename', { name: 'x' })).status).toBe(404);
  }, 60_000);

  it('closes an agent mid-turn only on the second confirmation, then the pane is gone', async () => {
    const id = `${tmux.name}:${claude.paneId}`;
    api.script(longTurn(30_000, 'never seen'));
    await claude.submit('a long job');
    await until(bridge.hub, 'the agent working', (h) => h.panes.get(id)?.state === 'working', 30_000);
    const first = await post(id, 'close', { mid_turn: false });
    expect(first.status).toBe(409);
    expect(ErrorBody.parse(await first.json()).error.message).toBe('panes: the agent is working; confirm closing it mid-turn');
    expect(bridge.hub.panes.has(id)).toBe(true);
    const closed = await post(id, 'close', { mid_turn: true });
    expect(closed.status, await closed.clone().text()).toBe(200);
    await until(bridge.hub, 'the pane gone', (h) => !h.panes.has(id), 15_000);
  }, 90_000);

  it('closes an idle shell at once', async () => {
    const id = `${tmux.name}:${shellPane}`;
    expect((await post(id, 'close', { mid_turn: false })).status).toBe(200);
    await until(bridge.hub, 'the pane gone', (h) => !h.panes.has(id), 15_000);
    expect((await post(id, 'close', { mid_turn: false })).status).toBe(404);
  });
});
