import { DurableAgent, serve, type Listening } from '@collie/durable-sdk';
import { conversationKey, type AgentHello } from '@collie/protocol';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableRig, sock, untilDurable, type DurableRig } from './durable-rig';

/** An agent of a later wire: the bridge refuses it, and its home shows the caution box. */
class Future extends DurableAgent {
  override hello(): AgentHello {
    return { ...super.hello(), wire: 2 };
  }
}

/**
 * How a durable agent's pages look at 390×844, measured in the real browser: the caution box
 * looks like one and offers no New conversation, "‹" goes back to the agent's list, a disabled
 * Send looks disabled, a long title keeps its badge on line 1, four own buttons keep the belt to
 * one row, a code block's first line starts where the others do, an unreachable agent is told in words.
 */
describe('durable agents: how the pages look (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  const listening: Listening[] = [];
  const looks = new DurableAgent({ runtime: 'looks', controls: { steer: true }, onMessage: () => undefined, onStop: () => undefined, starters: [{ id: 's', label: 'Start', onStart: (a) => a.open({ title: 'Started' }) }] });
  const future = new Future({ runtime: 'future' });

  beforeAll(async () => {
    work = await tempDir('collie-durable-looks-');
    const c = looks.open({ id: 'long', title: 'A conversation whose title runs on well past the width of a phone', workspace: '~/looks' });
    c.buttons([
      { id: 'a', label: 'Archive it', icon: 'archive', onTap: () => undefined },
      { id: 'b', label: 'Refresh all', icon: 'refresh', onTap: () => undefined },
      { id: 'f', label: 'Flag for later', icon: 'flag', onTap: () => undefined },
      { id: 's', label: 'Search notes', icon: 'search', onTap: () => undefined },
    ]);
    c.code('first = 1\nsecond = 2\nthird = 3', 'python');
    c.markdown('Fenced:\n\n```\nalpha()\nbeta()\n```');
    for (const [a, name] of [[looks, 'looks'], [future, 'future']] as const) listening.push(await serve(a, { socket: sock(work.path, name) }));
    const gone = { name: 'gone', address: sock(work.path, 'gone') };
    rig = await durableRig(work.path, [{ name: 'looks', address: listening[0]!.address }, { name: 'future', address: listening[1]!.address }, gone]);
    page = rig.page;
    await untilDurable(
      rig.bridge.hub,
      'the agents settled',
      (d) => d.conversations.has(conversationKey('looks', 'long')) && d.agents.get('future')?.state === 'version_mismatch' && d.agents.get('gone')?.state === 'unreachable',
    );
  }, 180_000);

  afterAll(async () => {
    await rig?.[Symbol.asyncDispose]();
    for (const l of listening) await l.close();
    await work?.[Symbol.asyncDispose]();
  });

  it('the Version mismatch caution box looks like a caution and offers no New conversation; an unreachable agent is told in words', async () => {
    await page.goto('/#/durable/future');
    const box = page.locator('.notice', { hasText: 'Version mismatch' });
    await box.waitFor();
    const look = await box.evaluate((e) => {
      const s = getComputedStyle(e);
      return { background: s.backgroundColor, border: s.borderTopStyle, role: e.getAttribute('role') };
    });
    expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
    expect(look.border).not.toBe('none');
    expect(look.role).toBe('alert');
    expect(await page.locator('.durable-new-link').count()).toBe(0);
    expect(await page.locator('.durable-open').isVisible()).toBe(false);
    await page.screenshot({ path: artifactPath('web/durable-looks-caution.png') });

    await page.goto('/#/durable/gone');
    const body = page.locator('.notice-body');
    await body.waitFor();
    const words = (await body.textContent()) ?? '';
    expect(words).not.toMatch(/ENOENT|ECONNREFUSED|connect |\.sock/);
    expect(words).toBe('Nothing answers at its socket: the durable agent is not running, or listens elsewhere.');
    await page.screenshot({ path: artifactPath('web/durable-looks-unreachable.png') });
  });

  it('‹ from a chat and from New conversation goes to the agent’s list', async () => {
    for (const at of ['/#/durable/looks/long', '/#/durable-new/looks']) {
      await page.goto(at);
      const back = page.locator('.back');
      await back.waitFor();
      expect(await back.getAttribute('href')).toBe('#/durable/looks');
      expect(await back.textContent()).toContain('looks');
      await back.click();
      await page.locator('.durable-home').waitFor();
    }
  });

  it('the chat: a long title keeps its badge on line 1, Send looks disabled when empty, four own buttons keep one row, a code block’s first line is not indented', async () => {
    await page.goto('/#/durable/looks/long');
    await page.locator('.durable-header').waitFor();
    const title = await page.locator('.durable-header h1').boundingBox();
    const badge = await page.locator('.durable-header .badge').boundingBox();
    const one = await page.locator('.durable-header h1').evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || 24);
    expect(title!.height).toBeGreaterThan(one * 1.5); // the title wraps, the badge stays on line 1
    expect(badge!.x + badge!.width).toBeLessThanOrEqual(390);
    expect(badge!.y).toBeLessThan(title!.y + one);

    const send = page.locator('.durable-send');
    const looksOf = () => send.evaluate((e) => ({ opacity: getComputedStyle(e).opacity, color: getComputedStyle(e).color }));
    const off = await looksOf();
    await page.locator('.durable-input').fill('hello');
    const on = await looksOf();
    expect(off).not.toEqual(on);
    expect(Number(off.opacity)).toBeLessThan(0.7);
    await page.locator('.durable-input').fill('');

    const tops = await page.locator('.durable-belt .belt-button').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops.length).toBe(6);
    expect(new Set(tops).size).toBe(1);

    await page.screenshot({ path: artifactPath('web/durable-looks-chat.png') });
    // The first line of each code block starts at the same x as its second line.
    for (const block of ['.chat-code pre', '.chat-markdown pre']) {
      const xs = await page.locator(block).first().evaluate((pre) => {
        const text = pre.textContent ?? '';
        const node = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const starts: number[] = [];
        let offset = 0;
        for (let n = node.nextNode(); n; n = node.nextNode()) {
          const t = n.textContent ?? '';
          for (let i = 0; i < t.length; i++) {
            const at = offset + i;
            if ((at === 0 || text[at - 1] === '\n') && t[i] !== '\n') {
              const r = document.createRange();
              r.setStart(n, i);
              r.setEnd(n, i + 1);
              starts.push(Math.round(r.getBoundingClientRect().left));
            }
          }
          offset += t.length;
        }
        return { starts, first: text.split('\n')[0] };
      });
      expect(xs.starts.length).toBeGreaterThanOrEqual(2);
      expect(new Set(xs.starts).size).toBe(1);
      expect(xs.first).not.toMatch(/^\s/);
    }
    expect(rig.errors).toEqual([]);
  });
});
