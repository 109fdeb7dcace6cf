import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DurableQuestion } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { bashPermission, claudeAcpAgent, longTurn, plainReply, startMessagesApi } from '@collie/testkit';
import { closedList, post } from '../../bridge/test/durable-kit';
import { SILENT_TURN } from '../src/agent-words';
import { acpSetup, conv, inConv, items, lastNotice, replyText, tap, type AcpSetup } from './acp-kit';

/**
 * The Claude Code ACP adapter (`@zed-industries/claude-agent-acp` 0.23.1, a dev dependency of the
 * testkit, on the Claude Agent SDK) driving the real native `claude` against the testkit's
 * scripted Messages API, spawned over stdio by the ACP bridge and served to a real bridge.
 */
describe('the Claude Code ACP adapter as a durable agent', () => {
  it('a prompt and its reply; Bash cards answered allow once, then always (the next call asks nothing); Stop mid-turn', async () => {
    await using api = await startMessagesApi();
    await using claude = await claudeAcpAgent(api);
    await using s = await acpSetup(claude, { requestMs: 120_000 }, 'claude');
    const id = (await tap.start(s, 'st-1')).conversationId!;
    api.script(plainReply('Hello from the scripted Claude.'));
    expect((await tap.say(s, id, 'say hello', 'say-1')).outcome).toBe('taken');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello from the scripted Claude.'), 90_000);
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt.includes('say hello'))).toHaveLength(1);
    expect(conv(s, id)?.title).toBe('say hello');

    // Allow once: the command runs; the next call of the same kind asks again.
    const once = join(claude.folder.path, 'once.txt');
    const first = await bashCard(s, api, id, `touch ${once}`, 'say-2');
    expect(first.kind === 'permission' && first.options.map((o) => [o.action, o.label])).toEqual([['always', 'Always Allow'], ['allow', 'Allow'], ['deny', 'Reject']]);
    expect(first.title).toContain(`touch ${once}`);
    expect(existsSync(once)).toBe(false);
    expect((await tap.answer(s, id, first, { kind: 'permission', option: optionFor(first, 'allow') }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the first command ran', (c, x) => c?.working === false && replyText(x).includes('The command finished'), 90_000);
    expect(existsSync(once)).toBe(true);

    // Always allow: this one runs, and the next `touch` runs without a card.
    const always = join(claude.folder.path, 'always.txt');
    const second = await bashCard(s, api, id, `touch ${always}`, 'say-3');
    expect((await tap.answer(s, id, second, { kind: 'permission', option: optionFor(second, 'always') }, 'ans-2')).outcome).toBe('taken');
    await inConv(s, id, 'the second command ran', (c, x) => c?.working === false && replyText(x).split('The command finished').length === 3, 90_000);
    expect(existsSync(always)).toBe(true);
    const unasked = join(claude.folder.path, 'unasked.txt');
    api.script(bashPermission(`touch ${unasked}`));
    await tap.say(s, id, 'make the third marker', 'say-4');
    await inConv(s, id, 'the third command ran without a card', (c, x) => c?.working === false && replyText(x).split('The command finished').length === 4, 90_000);
    expect(existsSync(unasked)).toBe(true);
    const tools = items(s, id).filter((i) => i.kind === 'tool');
    expect(tools.map((i) => (i.kind === 'tool' ? i.status : ''))).toEqual(['done', 'done', 'done']);
    expect(conv(s, id)?.questions).toEqual([]);

    // Stop mid-turn: the streaming request to the model is cut, the thread reads "stopped".
    api.script(longTurn(60_000, 'This answer streams for a long while. '.repeat(30)));
    await tap.say(s, id, 'talk for a long time', 'say-5');
    await inConv(s, id, 'the long reply growing', (c, x) => c?.working && replyText(x).includes('streams for a long while'), 90_000);
    expect((await tap.stop(s, id, 'stop-1')).outcome).toBe('taken');
    await inConv(s, id, 'stopped', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'stopped'), 60_000);
    const long = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('talk for a long time'), 10_000);
    await expect.poll(() => long.aborted, { timeout: 30_000 }).toBe(true);
    // The line after Stop: the adapter 0.23 answers its prompt at once with nothing
    // (agentclientprotocol/claude-agent-acp#551) though the model got the line; the thread says the
    // turn ended without a word, and that answer comes with the next line (the next line's own
    // answer may come then too, or a line later: the adapter races there).
    api.script(plainReply('Still here after the stop.'), plainReply('And this is the next answer.'));
    await tap.say(s, id, 'are you there', 'say-6');
    await inConv(s, id, 'the silent turn said', (c, x) => c?.working === false && lastNotice(x) === SILENT_TURN, 90_000);
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('are you there'), 30_000);
    await tap.say(s, id, 'hello again', 'say-7');
    await inConv(s, id, 'the answer after Stop', (c, x) => c?.working === false && replyText(x).includes('Still here after the stop.'), 90_000);
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt.includes('are you there'))).toHaveLength(1);
  }, 600_000);

  it('a second conversation is its own session; a closed one is in the closed list and reopens with its lines', async () => {
    await using api = await startMessagesApi();
    await using claude = await claudeAcpAgent(api);
    await using s = await acpSetup(claude, { requestMs: 120_000 }, 'claude');
    const a = (await tap.start(s, 'st-1')).conversationId!;
    api.script(plainReply('Answer one.'));
    await tap.say(s, a, 'the first conversation', 'say-1');
    await inConv(s, a, 'the first reply', (c, x) => c?.working === false && replyText(x).includes('Answer one.'), 90_000);

    const b = (await tap.start(s, 'st-2')).conversationId!;
    expect(b).not.toBe(a);
    api.script(plainReply('Answer two.'));
    await tap.say(s, b, 'the second conversation', 'say-2');
    await inConv(s, b, 'the second reply', (c, x) => c?.working === false && replyText(x).includes('Answer two.'), 90_000);
    // The model saw the second conversation alone: a new Claude session, not the first one's history.
    const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('the second conversation'), 10_000);
    expect(req.userMessages.some((m) => m.includes('the first conversation'))).toBe(false);
    expect(replyText(items(s, a))).not.toContain('Answer two.');

    expect((await post(s.bridge, '/close', { agent: 'claude', conversationId: a, request_id: 'cl-1' })).outcome).toBe('taken');
    await inConv(s, a, 'gone from the open list', (c) => c === undefined);
    // The closed list is the adapter's own session list (session/list): the closed one, not the open one.
    const listed = await closedList(s.bridge, 'claude');
    expect(listed.state).toBe('ok');
    const rows = listed.state === 'ok' ? listed.conversations : [];
    expect(rows.map((c) => c.id)).toContain(a);
    expect(rows.map((c) => c.id)).not.toContain(b);
    expect(rows.find((c) => c.id === a)?.title).toContain('the first conversation');

    // Reopen: session/load replays the session's lines into the thread.
    expect(await post(s.bridge, '/reopen', { agent: 'claude', conversationId: a, request_id: 'ro-1' })).toMatchObject({ outcome: 'taken', conversationId: a });
    await inConv(s, a, 'the replayed lines', (_c, x) => x.some((i) => i.kind === 'user' && i.text.includes('the first conversation')) && replyText(x).includes('Answer one.'), 60_000);
    // And it goes on where it was: the model sees the first line as history.
    api.script(plainReply('Answer three.'));
    await tap.say(s, a, 'back in the first', 'say-3');
    await inConv(s, a, 'the reply in the reopened one', (c, x) => c?.working === false && replyText(x).includes('Answer three.'), 90_000);
    const again = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('back in the first'), 10_000);
    expect(again.userMessages.some((m) => m.includes('the first conversation'))).toBe(true);
  }, 400_000);
});

/** Scripts a Bash call, sends a line, and waits for its permission card. */
async function bashCard(s: AcpSetup, api: Awaited<ReturnType<typeof startMessagesApi>>, id: string, command: string, requestId: string): Promise<DurableQuestion> {
  api.script(bashPermission(command));
  await tap.say(s, id, `run ${command}`, requestId);
  const q = await inConv(s, id, `the card for ${command}`, (c) => c?.questions.find((x) => x.kind === 'permission' && x.title.includes(command)), 90_000);
  expect(q.kind).toBe('permission');
  return q;
}

const optionFor = (q: DurableQuestion, action: string): string => {
  const o = q.kind === 'permission' ? q.options.find((x) => x.action === action) : undefined;
  if (!o) throw new Error(`the card has no ${action} option: ${JSON.stringify(q)}`);
  return o.id;
};
