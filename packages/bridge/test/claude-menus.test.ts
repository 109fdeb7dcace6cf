import { plainReply, type ClaudePane } from '@collie/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBridge, until } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';
import { call } from './send-helpers';

/**
 * The menus a user opens in the real Claude Code 2.1.334 with `/model`, `/effort` and `/resume`:
 * read as `menu` while the pane stays idle (nothing waits on the phone), never answered from
 * the phone, and gone again once closed at the terminal.
 */
describe('Claude Code menus opened by the user', () => {
  let rig: LiveClaude;
  let bridge: TestBridge, claude: ClaudePane, id: string;

  beforeAll(async () => {
    rig = await liveClaude({ api: { fallback: plainReply('ok') }, ready: { what: 'the pane idle', check: (h, id) => h.panes.get(id)?.state === 'idle' || undefined } });
    ({ bridge, claude, id } = rig);
  }, 120_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  it.each([
    ['/model', /Select model/u],
    ['/effort', /Effort/u],
    ['/resume', /Resume session/u],
  ])('%s: read as a menu on a pane at rest, not answerable, gone once closed', { timeout: 120_000 }, async (cmd, sign) => {
    await claude.submit(cmd);
    await claude.waitForScreen(sign, 30_000);
    // Never blocked: the phone shows nothing waiting while the user browses a menu. (`/resume`
    // draws a spinner while it lists sessions, so the pane may read `done` after it.)
    let blocked = false;
    const pane = await until(bridge.hub, `${cmd} read as a menu on an idle pane`, (h) => {
      const p = h.panes.get(id);
      blocked ||= p?.state === 'blocked';
      return p?.dialog === 'menu' && (p.state === 'idle' || p.state === 'done') && p;
    }, 30_000);
    expect(blocked).toBe(false);
    if (pane.card) {
      expect(pane.card).toMatchObject({ kind: 'menu', answerable: false });
      const r = await call(bridge, id, 'answer', { signature: pane.card.signature, option: 1, request_id: `menu-${cmd.slice(1)}` });
      expect(r.outcome).not.toBe('answered');
      expect(await claude.capture()).toMatch(sign);
    }
    await claude.press('Escape', (s) => !sign.test(s), 30_000);
    await until(bridge.hub, `${cmd} closed`, (h) => { const p = h.panes.get(id); return p && p.dialog === null && (p.state === 'idle' || p.state === 'done') && p; }, 30_000);
  });
});
