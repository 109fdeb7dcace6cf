import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DurableQuestion } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { agentLongTurn, agentReply, agentShell, CODEX_ACP_MODEL, codexAcpAgent, startResponsesApi, type AgentApi } from '@collie/testkit';
import { acpSetup, conv, inConv, items, replyText, tap, type AcpSetup } from './acp-kit';

/**
 * The Codex ACP adapter (`@zed-industries/codex-acp` 0.16.0, a dev dependency of the testkit: its
 * native build, Codex's own core) against the testkit's scripted Responses API, spawned over
 * stdio by the ACP bridge and served to a real bridge.
 */
describe('the Codex ACP adapter as a durable agent', () => {
  it('a prompt and its reply; a shell card denied, then allowed; Stop mid-turn; the model from the belt', async () => {
    await using api = await startResponsesApi();
    await using codex = await codexAcpAgent(api);
    await using s = await acpSetup(codex, { requestMs: 120_000 }, 'codex');
    const id = (await tap.start(s, 'st-1')).conversationId!;
    api.script(agentReply('Hello from the scripted Codex.'));
    expect((await tap.say(s, id, 'say hello', 'say-1')).outcome).toBe('taken');
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x) === 'Hello from the scripted Codex.', 90_000);
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt === 'say hello').map((r) => r.model)).toEqual([CODEX_ACP_MODEL]);
    expect(conv(s, id)?.title).toBe('say hello');

    // Denied ("No, and tell Codex what to do differently" aborts Codex's turn): the command does
    // not run, the tool item says so, and the model is not asked again.
    const denied = join(codex.folder.path, 'denied.txt');
    const first = await shellCard(s, api, id, `touch ${denied}`, 'say-2', true);
    expect(first.kind === 'permission' && first.options.map((o) => o.action)).toEqual(['allow', 'always', 'deny']);
    expect(first.kind === 'permission' && first.options[0]?.label).toBe('Yes, proceed');
    expect(first.body).toContain('Make the marker');
    expect((await tap.answer(s, id, first, { kind: 'permission', option: optionFor(first, 'deny') }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the denied call settled', (c, x) => c?.working === false && x.some((i) => i.kind === 'tool' && i.input.includes('denied.txt') && i.status === 'denied'), 90_000);
    expect(existsSync(denied)).toBe(false);
    expect(api.requests.filter((r) => r.kind === 'main' && r.prompt === 'make the marker')).toHaveLength(1);

    // Allowed: it runs, the model gets its output, the closing line comes back.
    const allowed = join(codex.folder.path, 'allowed.txt');
    const second = await shellCard(s, api, id, `touch ${allowed}`, 'say-3');
    expect((await tap.answer(s, id, second, { kind: 'permission', option: optionFor(second, 'allow') }, 'ans-2')).outcome).toBe('taken');
    await inConv(s, id, 'the command ran', (c, x) => c?.working === false && x.some((i) => i.kind === 'tool' && i.input.includes('allowed.txt') && i.status === 'done') && replyText(x).includes('The command finished.'), 90_000);
    expect(existsSync(allowed)).toBe(true);
    const after = await api.waitForRequest((r) => r.kind === 'main' && r.toolOutputs.some((o) => o.includes('exited with code 0')), 10_000);
    expect(after.prompt).toBe('make the marker');

    // Stop mid-turn: the streaming request is cut, the thread reads "stopped", the session goes on.
    api.script(agentLongTurn(60_000, 'This answer streams for a long while. '.repeat(30)));
    await tap.say(s, id, 'talk for a long time', 'say-4');
    await inConv(s, id, 'the long reply growing', (c, x) => c?.working && replyText(x).includes('streams for a long while'), 90_000);
    expect((await tap.stop(s, id, 'stop-1')).outcome).toBe('taken');
    await inConv(s, id, 'stopped', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'stopped'), 60_000);
    const long = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'talk for a long time', 10_000);
    await expect.poll(() => long.aborted, { timeout: 30_000 }).toBe(true);

    // The belt's model choice (a config option of category model): the next turn runs on it.
    const belt = conv(s, id)!.buttons;
    expect(belt.find((b) => b.label === CODEX_ACP_MODEL)).toMatchObject({ icon: 'check', disabled: true });
    const other = belt.find((b) => b.id.startsWith('model-') && !b.disabled)!;
    expect((await tap.button(s, id, other.id, conv(s, id)!.turn, 'model-1')).outcome).toBe('taken');
    await inConv(s, id, 'the other model checked', (c) => c?.buttons.find((b) => b.id === other.id)?.disabled, 30_000);
    api.script(agentReply('Still here after the stop.'));
    await tap.say(s, id, 'are you there', 'say-5');
    await inConv(s, id, 'a reply after Stop', (c, x) => c?.working === false && replyText(x).includes('Still here after the stop.'), 90_000);
    const next = await api.waitForRequest((r) => r.kind === 'main' && r.prompt === 'are you there', 10_000);
    expect(next.model).not.toBe(CODEX_ACP_MODEL);
    expect(items(s, id).filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual(['say hello', 'make the marker', 'make the marker', 'talk for a long time', 'are you there']);
  }, 600_000);
});

/**
 * Scripts a shell call that needs approval (and, unless `denied`, the closing turn once its output
 * comes back), sends a line, and waits for its permission card.
 */
async function shellCard(s: AcpSetup, api: AgentApi, id: string, command: string, requestId: string, denied = false): Promise<DurableQuestion> {
  const [call, closing] = agentShell(command, { reason: 'Make the marker' });
  api.script(...(denied ? [call!] : [call!, closing!]));
  await tap.say(s, id, 'make the marker', requestId);
  return inConv(s, id, `the card for ${command}`, (c) => c?.questions.find((x) => x.kind === 'permission' && x.title.includes(command)), 90_000);
}

const optionFor = (q: DurableQuestion, action: string): string => {
  const o = q.kind === 'permission' ? q.options.find((x) => x.action === action) : undefined;
  if (!o) throw new Error(`the card has no ${action} option: ${JSON.stringify(q)}`);
  return o.id;
};
