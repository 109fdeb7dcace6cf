import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpScriptAgent, tempDir } from '@collie/testkit';
import { acpSetup, conv, inConv, items, lastNotice, replyText, tap } from './acp-kit';

/**
 * An agent that misbehaves: garbage lines, oversized and hostile text, too many options, a
 * crash, a hang. The bridge cleans what it can show, survives what it cannot, and says so.
 */
describe('a hostile or broken ACP agent', () => {
  it('malformed and oversized messages are cut and cleaned, never crash the bridge', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'fuzz', 'say-1');
    const c = await inConv(s, id, 'the fuzz card', (c) => (c?.questions[0]?.kind === 'permission' ? c : undefined));
    const q = c.questions[0]!;
    // Ten options: six shown, every label and the title cut, and so no "Always allow" offered blind.
    expect(q.kind === 'permission' && q.options).toHaveLength(6);
    expect(q.title.length).toBeLessThanOrEqual(200);
    expect(q.kind === 'permission' && q.options.every((o) => o.label.length <= 200)).toBe(true);
    expect(c.progress?.kind === 'steps' && c.progress.steps.length).toBeLessThanOrEqual(50);
    const xs = items(s, id);
    const reply = replyText(xs);
    // Control bytes and bidirectional overrides are gone; the markup is text (the page renders text nodes).
    expect(reply).toContain('<script>alert(1)</script>');
    expect(reply).not.toMatch(/[\u0007\u001b\u202e]/u);
    const tool = xs.find((i) => i.kind === 'tool');
    expect(tool && tool.kind === 'tool' && tool.input.length).toBeLessThanOrEqual(2_000);
    expect(tool && tool.kind === 'tool' && tool.input).not.toMatch(/\u0000/u);
    expect((await tap.answer(s, id, q, { kind: 'permission', option: 'o5' }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the agent got option 5', (_c, x) => replyText(x).includes('Fuzz answer: {"outcome":"selected","optionId":"opt-5-kkk'));
    // Still a working agent after all that.
    await tap.say(s, id, 'hello', 'say-2');
    await inConv(s, id, 'a reply after the fuzz', (_c, x) => replyText(x).includes('Hello from the script agent.'));
  });

  it('with --serve, an agent that dies (a crash, an oversized line) is restarted with back-off, the phone told', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path), { serve: true });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    const pid = s.running.pid();
    await tap.say(s, id, 'crash', 'say-1');
    await inConv(s, id, 'the crash notice', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && /exited with code 3\. Restarting it in 1 s\./u.test(i.text)));
    await inConv(s, id, 'running again', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.'));
    expect(s.running.pid()).not.toBe(pid);
    // The conversation carries on: the agent loads its session again (it keeps them in memory, so a new one here).
    await tap.say(s, id, 'hello', 'say-2');
    await inConv(s, id, 'a reply after the restart', (_c, x) => replyText(x).includes('Hello from the script agent.'));
    await tap.say(s, id, 'oversize', 'say-3');
    await inConv(s, id, 'the oversize notice', (_c, x) => x.filter((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.').length === 2);
    expect(s.bridge.hub.durable.agents.get('acp')?.state).toBe('ready');
  });

  it('with --serve, the wait doubles while the agent keeps dying, and is back to the first after it stayed up', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    const lines: string[] = [];
    await using s = await acpSetup(acpScriptAgent(folder.path), { serve: true, backoff: { first: 200, max: 1_000, healthyMs: 10_000 }, log: (l) => lines.push(l) });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    const waits = () => lines.flatMap((l) => /restarting in (\d+) ms$/u.exec(l)?.[1] ?? []).map(Number);
    const crash = async (n: number, id2: string) => {
      const up = s.running.pid();
      await tap.say(s, id, 'crash', id2);
      await expect.poll(() => waits().length, { timeout: 30_000 }).toBe(n);
      await expect.poll(() => s.running.pid() !== undefined && s.running.pid() !== up, { timeout: 30_000 }).toBe(true);
      await inConv(s, id, 'running again', (_c, x) => x.filter((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.').length === n);
    };
    await crash(1, 'say-1');
    await crash(2, 'say-2');
    await crash(3, 'say-3');
    expect(waits()).toEqual([200, 400, 800]);
    // Up longer than healthyMs: the next death waits the first time again. (The wait is the condition here.)
    const upSince = Date.now();
    await expect.poll(() => Date.now() - upSince >= 10_500, { timeout: 20_000, interval: 250 }).toBe(true);
    await crash(4, 'say-4');
    expect(waits()).toEqual([200, 400, 800, 200]);
  });

  it('with --serve, a restart that fails is said on the phone, and tried again until the agent starts', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    const broken = join(folder.path, 'broken');
    const lines: string[] = [];
    await using s = await acpSetup(acpScriptAgent(folder.path, { brokenIf: broken }), { serve: true, log: (l) => lines.push(l) });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await writeFile(broken, '');
    await tap.say(s, id, 'crash', 'say-1');
    await inConv(s, id, 'the failed restart said', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent could not be started again: the ACP agent exited with code 2: script-agent: broken on purpose. Trying again in 1 s, then less often.'));
    // Said once, not at every try.
    await expect.poll(() => lines.filter((l) => l.startsWith('restart failed: the ACP agent exited with code 2')).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(items(s, id).filter((i) => i.kind === 'notice' && i.text.startsWith('The ACP agent could not be started again'))).toHaveLength(1);
    expect((await tap.say(s, id, 'hello', 'say-2')).outcome).toBe('refused');
    await rm(broken);
    await inConv(s, id, 'running again', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.'));
    await tap.say(s, id, 'hello', 'say-3');
    await inConv(s, id, 'a reply after the restart', (c, x) => c?.working === false && replyText(x).includes('Hello from the script agent.'));
  });

  it('without --serve, the agent ending ends the command and removes it from sources.json', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path));
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'crash', 'say-1');
    expect(await s.running.done).toBe(1);
    await inConv(s, id, 'the agent gone from the phone', () => !s.bridge.hub.durable.agents.has('acp') || undefined);
  });

  it('an agent that hangs is timed out with a notice, not a frozen conversation', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path), { hangMs: 1_500 });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'hang', 'say-1');
    await inConv(s, id, 'the hang notice', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'The agent said nothing for 2 s, so the turn was stopped.'));
    await tap.say(s, id, 'hello', 'say-2');
    await inConv(s, id, 'the next line answered', (_c, x) => replyText(x).includes('Hello from the script agent.'));
    expect(conv(s, id)?.working).toBe(false);
  });

  it('an agent deaf to session/cancel too: the watchdog or Stop gives its prompt up, and the next line is sent', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    await using s = await acpSetup(acpScriptAgent(folder.path), { hangMs: 1_500, requestMs: 1_500 });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    // The watchdog: the turn is stopped and said so; the prompt never answered does not hold the next line.
    await tap.say(s, id, 'deaf', 'say-1');
    await inConv(s, id, 'the hang notice', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'The agent said nothing for 2 s, so the turn was stopped.'));
    await tap.say(s, id, 'hello', 'say-2');
    await inConv(s, id, 'the next line answered', (c, x) => c?.working === false && replyText(x).includes('Hello from the script agent.'));
    // Stop: the agent does not end its turn after session/cancel; after requestMs the thread says so and goes on.
    await tap.say(s, id, 'deaf', 'say-3');
    await inConv(s, id, 'the deaf turn running', (c) => c?.working);
    expect((await tap.stop(s, id, 'stop-1')).outcome).toBe('taken');
    await inConv(s, id, 'given up after Stop', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The agent did not end its turn within 2 s of Stop; the next line is sent to it anyway.'));
    await tap.say(s, id, 'again', 'say-4');
    await inConv(s, id, 'the line after Stop answered', (c, x) => c?.working === false && replyText(x).includes('You said: again'));
  });

  it('a request the agent never answers (session/new, session/load) fails in words, the conversation not frozen', async () => {
    await using folder = await tempDir('collie-acp-cwd-');
    {
      await using s = await acpSetup(acpScriptAgent(folder.path, { hang: ['session/new'] }), { requestMs: 1_500 });
      expect(await tap.start(s, 'st-1')).toMatchObject({ outcome: 'refused', reason: 'The ACP agent did not answer session/new within 2 s.' });
    }
    // After a restart the next line loads the session again; an agent that never answers the load.
    await using s = await acpSetup(acpScriptAgent(folder.path, { hang: ['session/load'] }), { serve: true, requestMs: 1_500 });
    const id = (await tap.start(s, 'st-1')).conversationId!;
    await tap.say(s, id, 'crash', 'say-1');
    await inConv(s, id, 'running again', (_c, x) => x.some((i) => i.kind === 'notice' && i.text === 'The ACP agent is running again.'));
    await tap.say(s, id, 'hello', 'say-2');
    await inConv(s, id, 'the load timed out', (c, x) => c?.working === false && lastNotice(x) === 'The prompt failed: the ACP agent did not answer session/load within 2 s');
  });
});
