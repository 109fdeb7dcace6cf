import { DurableAgent, Refusal, type Calls, type Conversation } from '@collie/durable-sdk';
import type { WireResult } from '@collie/protocol';
import { artifactPath, tempDir, type TempDir } from '@collie/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableAgentRig, type DurableRig } from './durable-rig';

type Script = 'pass' | 'throw' | { result: WireResult };

/** A durable agent on the SDK whose calls a test scripts by text or button: act first, then let the SDK answer. */
class Talker extends DurableAgent {
  readonly scripts = new Map<string, () => Script | Promise<Script>>();
  readonly messages: { text: string; requestId: string }[] = [];
  gate: Promise<void> = Promise.resolve();

  constructor() {
    super({
      runtime: 'talker',
      controls: { steer: true },
      onStop: () => undefined,
      onMessage: (c, text, { steer }) => {
        if (steer) return void c.notice(`steered: ${text}`);
        // Refused after the SDK wrote its copy of the line: the phone still says "Not sent".
        if (text === 'refuse me') throw new Refusal('talker is busy.');
        c.startTurn();
        void this.gate.then(() => {
          c.reply(`You said: ${text}`);
          c.endTurn();
        });
      },
    });
  }

  override async call<P extends keyof Calls>(path: P, body: Calls[P]): Promise<WireResult> {
    const key = 'text' in body ? body.text : 'buttonId' in body ? body.buttonId : null;
    if ('text' in body) this.messages.push({ text: body.text, requestId: body.requestId });
    const script = key === null ? undefined : this.scripts.get(key);
    if (key !== null) this.scripts.delete(key);
    const act = script ? await script() : 'pass';
    if (act === 'throw') throw new Error('the line dropped on the way');
    if (act !== 'pass') return act.result;
    return super.call(path, body);
  }
}

/**
 * The chat's own tables at 390×844: your own line, the header's second line, the belt, and
 * what a durable agent's pane does not have, against a scripted SDK agent through the real bridge.
 */
describe('durable agents: your line, the header and the belt (390×844)', () => {
  let work: TempDir;
  let rig: DurableRig;
  let page: Page;
  const agent = new Talker();
  let talk: Conversation;
  let head: Conversation;
  let belt: Conversation;
  const open = async (id: string) => {
    await page.goto(`/#/durable/talker/${id}`);
    await page.locator('.durable-header').waitFor();
  };
  const line2 = () => page.locator('.durable-header .durable-line2').textContent();

  beforeAll(async () => {
    work = await tempDir('collie-durable-t-');
    talk = agent.open({ id: 'talk', title: 'Talk', workspace: '~/talk' });
    head = agent.open({ id: 'head', title: 'Header', subtitle: 'notes/today.md', workspace: '~/desk' });
    belt = agent.open({ id: 'belt', title: 'Belt', workspace: '~/belt' });
    belt.buttons([
      { id: 'run', label: 'Run the checks now please', icon: 'play', onTap: (c) => c.notice('ran the checks') },
      { id: 'busy', label: 'Refresh', icon: 'refresh', busy: true, onTap: () => undefined },
      { id: 'off', label: 'Star', icon: 'star', disabled: true, onTap: () => undefined },
      { id: 'odd', label: 'Odd', icon: 'unicorn', onTap: () => undefined },
      { id: 'fifth', label: 'Fifth', icon: 'flag', onTap: () => undefined },
    ]);
    rig = await durableAgentRig(work.path, 'talker', agent, 'belt');
    page = rig.page;
  }, 180_000);

  afterAll(async () => {
    await rig?.[Symbol.asyncDispose]();
    await work?.[Symbol.asyncDispose]();
  });

  it('your own line: a clock at once, Sent, three dots, Sending not confirmed with Send again on the same id, Not sent with your words back, matched by text', async () => {
    await open('talk');
    const box = page.getByRole('textbox', { name: 'Message' });
    // Held on the way: the line shows at once with its clock, and three dots.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    agent.scripts.set('hello there', () => held.then(() => 'pass' as const));
    let answer!: () => void;
    agent.gate = new Promise<void>((r) => (answer = r));
    await box.fill('hello there');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const own = page.locator('.chat-own', { hasText: 'hello there' });
    await own.locator('.own-clock').waitFor();
    await page.locator('.chat-dots').waitFor();
    expect(await box.inputValue()).toBe('');
    await page.screenshot({ path: artifactPath('web/durable-line-sending.png') });
    release();
    // The agent's own copy takes the line's place; the composer says Sent; dots until it answers.
    await page.locator('.durable-sent', { hasText: 'Sent' }).waitFor();
    await own.waitFor({ state: 'detached' });
    expect(await page.locator('.chat-user', { hasText: 'hello there' }).count()).toBe(1);
    await page.locator('.chat-dots').waitFor();
    answer();
    await page.locator('.chat-reply', { hasText: 'You said: hello there' }).waitFor();
    await page.locator('.chat-dots').waitFor({ state: 'detached' });

    agent.scripts.set('lost once', () => 'throw');
    await box.fill('lost once');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const lost = page.locator('.chat-own', { hasText: 'lost once' });
    await lost.locator('.own-words', { hasText: 'Sending, not confirmed' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-line-unsure.png') });
    await lost.getByRole('button', { name: 'Send again' }).click();
    await lost.waitFor({ state: 'detached' });
    const ids = agent.messages.filter((m) => m.text === 'lost once').map((m) => m.requestId);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(await page.locator('.chat-user', { hasText: 'lost once' }).count()).toBe(1);

    await box.fill('refuse me');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.chat-own', { hasText: 'refuse me' }).locator('.own-words', { hasText: 'Not sent' }).waitFor();
    expect(await box.inputValue()).toBe('refuse me');
    expect(await page.locator('.chat-user', { hasText: 'refuse me' }).count()).toBe(1);
    await page.screenshot({ path: artifactPath('web/durable-line-not-sent.png') });

    // An agent that does not echo the request id: matched by the same text within 30 s.
    agent.scripts.set('no id echo', () => {
      talk.user('no id echo');
      return { result: { outcome: 'taken', reason: null, conversationId: null } };
    });
    await box.fill('no id echo');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.chat-user', { hasText: 'no id echo' }).first().waitFor();
    await expect.poll(() => page.locator('.chat-own', { hasText: 'no id echo' }).count()).toBe(0);
    expect(await page.locator('.chat-user', { hasText: 'no id echo' }).count()).toBe(1);

    // A reply still growing has a cursor and no time; settled, the cursor goes and its time shows.
    const growing = talk.reply('half', { growing: true });
    const grown = page.locator('.chat-timed', { hasText: 'half' });
    await grown.locator('.chat-cursor').waitFor();
    expect(await grown.locator('.chat-time').count()).toBe(0);
    growing.settle('half and whole');
    await grown.locator('.chat-time').waitFor();
    expect(await grown.locator('.chat-cursor').count()).toBe(0);
    expect(await grown.locator('.chat-reply').textContent()).toBe('half and whole');
    expect(rig.errors).toEqual([]);
  }, 120_000);

  it('the header: title and Experimental, then steps, percent, subtitle or workspace; progress only while it works or waits', async () => {
    await open('head');
    expect(await page.locator('.durable-header .durable-line1').textContent()).toBe('Header Experimental');
    expect(await line2()).toBe('notes/today.md');
    head.startTurn();
    head.progress({ kind: 'steps', steps: [{ label: 'Read the folder', state: 'done' }, { label: 'Save a note', state: 'running' }, { label: 'Tidy up', state: 'pending' }] });
    await expect.poll(line2).toBe('Step 2 of 3: Save a note');
    await page.screenshot({ path: artifactPath('web/durable-header-steps.png') });
    head.progress({ kind: 'percent', percent: 42, label: 'uploading' });
    await expect.poll(line2).toBe('42%: uploading');
    head.progress({ kind: 'steps', steps: [{ label: 'Read the folder', state: 'done' }, { label: 'Save a note', state: 'done' }] });
    await expect.poll(line2).toBe('notes/today.md');
    head.progress({ kind: 'percent', percent: 42, label: 'uploading' });
    await expect.poll(line2).toBe('42%: uploading');
    head.set({ working: false });
    await expect.poll(line2).toBe('notes/today.md');
    head.set({ subtitle: null });
    await expect.poll(line2).toBe('~/desk');
    expect(rig.errors).toEqual([]);
  }, 60_000);

  it('the belt: Steer, Stop, up to 4 buttons of 16 characters with known icons, busy and disabled dimmed in place, moved on; no Terminal, tabs, Keys, Type or Quick', async () => {
    await open('belt');
    const labels = await page.locator('.durable-belt .belt-button').allTextContents();
    expect(labels).toEqual(['Steer', 'Stop', 'Run the checks…', 'Refresh', 'Star', 'Odd']);
    expect(await page.locator('.durable-belt svg').evaluateAll((s) => s.map((x) => x.getAttribute('data-icon')))).toEqual(['play', 'star']);
    const busy = page.locator('.belt-button', { hasText: 'Refresh' });
    expect(await busy.locator('.spinner').count()).toBe(1);
    expect(await busy.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('.belt-button', { hasText: 'Star' }).getAttribute('aria-disabled')).toBe('true');
    // Not working: Steer and Stop are dimmed in place.
    expect(await page.locator('.belt-button', { hasText: 'Steer' }).getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('.belt-button', { hasText: 'Stop' }).getAttribute('aria-disabled')).toBe('true');
    await page.screenshot({ path: artifactPath('web/durable-belt.png') });

    await page.locator('.belt-button', { hasText: 'Run the checks' }).click();
    await page.locator('.chat-notice', { hasText: 'ran the checks' }).waitFor();
    // The turn moves on between the phone's view and the tap: nothing runs, and the phone says so.
    agent.scripts.set('run', () => (belt.startTurn(), 'pass'));
    await page.locator('.belt-button', { hasText: 'Run the checks' }).click();
    await page.getByText('The conversation moved on, so the action did not run.').waitFor();
    expect(await page.locator('.chat-notice', { hasText: 'ran the checks' }).count()).toBe(1);

    // Working now: Steer sends into the running turn, Stop ends it with the note "stopped".
    await expect.poll(() => page.locator('.belt-button', { hasText: 'Stop' }).getAttribute('aria-disabled')).toBe('false');
    await page.getByRole('textbox', { name: 'Message' }).fill('go left');
    await page.locator('.belt-button', { hasText: 'Steer' }).click();
    await page.locator('.chat-notice', { hasText: 'steered: go left' }).waitFor();
    expect(agent.messages.at(-1)?.text).toBe('go left');
    await page.locator('.belt-button', { hasText: 'Stop' }).click();
    await page.locator('.chat-notice', { hasText: 'stopped' }).waitFor();
    await page.screenshot({ path: artifactPath('web/durable-belt-after.png') });

    // What a durable agent's pane does not have; its menu reads "Close conversation" alone.
    expect(await page.locator('.term').count()).toBe(0);
    expect(await page.getByRole('tablist').count()).toBe(0);
    for (const name of ['Terminal', 'Keys', 'Type', 'Quick']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    await page.getByLabel('Menu').click();
    expect(await page.locator('.durable-menu-list').innerText()).toBe('Close conversation');
    await page.screenshot({ path: artifactPath('web/durable-menu.png') });
    expect(rig.errors).toEqual([]);
  }, 90_000);
});
