import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentLongTurn, agentReply, agentShell, geminiAcpAgent, geminiMissing, startGeminiApi } from '@collie/testkit';
import { acpSetup, conv, inConv, replyText, tap } from './acp-kit';

/**
 * The real Gemini CLI in ACP mode (`gemini --experimental-acp`, spawned over stdio by the ACP
 * bridge) against the testkit's scripted Gemini API, through a real bridge: a prompt from the
 * durable wire reaches the model, the reply streams back as items, the shell call's permission
 * request is a card whose answer lets the command run, and Stop cancels a turn.
 */
describe.skipIf(geminiMissing() !== null)('Gemini CLI over ACP as a durable agent', () => {
  it('a prompt, a permission card answered from the wire, and Stop', async () => {
    await using api = await startGeminiApi();
    await using gemini = await geminiAcpAgent(api);
    await using s = await acpSetup(gemini, { requestMs: 120_000 }, 'gemini');
    const started = await tap.start(s, 'st-1');
    expect(started.outcome).toBe('taken');
    const id = started.conversationId!;

    api.script(agentReply('Hello from the scripted Gemini.'));
    expect((await tap.say(s, id, 'say hello', 'say-1')).outcome).toBe('taken');
    const req = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('say hello'), 90_000);
    expect(req.userMessages.filter((m) => m.includes('say hello'))).toHaveLength(1);
    await inConv(s, id, 'the reply', (c, x) => c?.working === false && replyText(x).includes('Hello from the scripted Gemini.'), 90_000);

    const marker = join(gemini.folder.path, 'ran.txt');
    api.script(...agentShell(`touch ${marker}`, { reason: 'Make the marker' }));
    await tap.say(s, id, 'make the marker', 'say-2');
    const c = await inConv(s, id, 'the permission card', (c) => (c?.questions[0]?.kind === 'permission' ? c : undefined), 90_000);
    const q = c.questions[0]!;
    expect(q.kind === 'permission' && q.options.map((o) => o.action)).toEqual(expect.arrayContaining(['allow', 'deny']));
    expect(q.title).toContain('touch');
    expect(existsSync(marker)).toBe(false);
    const allow = q.kind === 'permission' ? q.options.find((o) => o.action === 'allow')! : null;
    expect((await tap.answer(s, id, q, { kind: 'permission', option: allow!.id }, 'ans-1')).outcome).toBe('taken');
    await inConv(s, id, 'the command ran and the turn ended', (c, x) => c?.working === false && x.some((i) => i.kind === 'tool' && i.status === 'done') && replyText(x).includes('The command finished.'), 90_000);
    expect(existsSync(marker)).toBe(true);

    api.script(agentLongTurn(30_000, 'This is a long answer that streams for a while. '.repeat(20)));
    await tap.say(s, id, 'talk for a long time', 'say-3');
    await inConv(s, id, 'the long turn running', (c, x) => c?.working && replyText(x).includes('long answer'), 90_000);
    expect((await tap.stop(s, id, 'stop-1')).outcome).toBe('taken');
    await inConv(s, id, 'stopped', (c, x) => c?.working === false && x.some((i) => i.kind === 'notice' && i.text === 'stopped'), 60_000);
    expect(conv(s, id)?.questions).toEqual([]);
  });
});
