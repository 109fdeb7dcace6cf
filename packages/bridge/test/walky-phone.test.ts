import { walkyWords, WalkyBroadcastAnswer, WalkyMessagesAnswer, WalkySendAnswer, type WalkyMessage } from '@collie/protocol';
import { testDevice, testBridgeOptions } from '@collie/testkit';
import { describe, expect, it } from 'vitest';
import { startBridge } from '../src/bridge';
import { paneOf, runCli, walkyDesk } from './walky/kit';

describe('walky talky on the phone: /api/walky behind the device gate', () => {
  it('sends as the operator, replies to an agent, broadcasts to every agent, and lists a pane\'s messages', async () => {
    await using desk = await walkyDesk('collie-walky-phone');
    const { tmux, api, state, env, sender, claude } = desk;
    const shell = await tmux.newSession('shell', { cmd: ['sh'] });
    const device = await testDevice(state.path, 'phone-altan');
    await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
    const S = await paneOf(bridge, sender.paneId, (p) => p.harness === 'claude');
    const T = await paneOf(bridge, claude.paneId);
    const H = await paneOf(bridge, shell, (p) => p.harness === 'shell');
    const http = (path: string, body?: unknown, headers: Record<string, string> = device.headers) =>
      fetch(`${bridge.url}${path}`, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const send = async (body: unknown) => {
      const r = await http('/api/walky/send', body);
      expect(r.status).toBe(200);
      return WalkySendAnswer.parse(await r.json()).message;
    };
    // The receipt as the log holds it, once final (read through the phone's own list).
    const final = async (id: string): Promise<WalkyMessage> => {
      const end = Date.now() + 60_000;
      for (;;) {
        const list = WalkyMessagesAnswer.parse(await (await http('/api/walky/messages')).json());
        const found = list.messages.find((x) => x.id === id);
        if (found && found.state !== 'accepted') return found;
        if (Date.now() > end) throw new Error(`timed out waiting for the final receipt of ${id}: ${JSON.stringify(found)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    // The gate, and malformed bodies answered with what was wrong.
    expect((await http('/api/walky/messages', undefined, {})).status).toBe(401);
    const bad = await http('/api/walky/send', { to: T.address });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^bridge: /);
    expect((await http('/api/walky/send', { to: T.address, body: 'x', from: 'agent' })).status).toBe(400);
    const unknown = await http('/api/walky/send', { reply_to: 'wt_000000000000', body: 'x' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('bridge: no message wt_000000000000 on this machine');

    // The operator's message: the header names the device, the body follows it, typed into the pane.
    const m = await send({ to: T.address, body: 'Stop and report what you changed.' });
    expect(m).toMatchObject({ from: { kind: 'operator', device: 'phone-altan' }, to: { paneId: T.id, address: T.address }, verified: 'local' });
    const q = await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes(`[walky-talky ${m.id}]`), 60_000);
    expect(q.prompt).toContain(`[walky-talky ${m.id}] from operator (phone-altan)\nStop and report what you changed.`);
    expect((await final(m.id)).state).toBe('delivered');

    // The same id twice: the stored receipt, nothing typed again.
    expect((await send({ to: T.address, body: 'again', id: m.id })).body).toBe('Stop and report what you changed.');

    // Refusals, each with the page's words.
    expect(await send({ to: `${T.address.slice(0, -4)}zzzz`, body: 'x' })).toMatchObject({ state: 'refused', reason: 'pane replaced' });
    expect(await send({ to: H.address, body: 'x' })).toMatchObject({ state: 'refused', reason: 'not an agent pane' });
    expect(await send({ to: T.address, body: 'y'.repeat(4001) })).toMatchObject({ state: 'refused', reason: 'body over 4,000 characters' });

    // An agent's message, then the phone's reply: to the sender's logged pane, with its token.
    const agent = await sender.collie(['walky', 'send', T.address, 'Tests are green.']);
    expect(agent.code).toBe(0);
    const agentId = agent.out.split('\n')[0]!;
    await final(agentId);
    const reply = await send({ reply_to: agentId, body: 'Merge it.' });
    expect(reply).toMatchObject({ replyTo: agentId, from: { kind: 'operator' }, to: { paneId: S.id, address: S.address } });
    // A reply to the operator's own message has no pane to go to.
    expect(await send({ reply_to: m.id, body: 'x' })).toMatchObject({ state: 'refused', reason: 'a message from an operator has no pane to reply to' });

    // A pane's list: to and from it, newest first, refusal counts beside.
    const list = WalkyMessagesAnswer.parse(await (await http(`/api/walky/messages?pane=${encodeURIComponent(T.id)}`)).json());
    const ids = list.messages.map((x: WalkyMessage) => x.id);
    expect(ids.indexOf(agentId)).toBeLessThan(ids.indexOf(m.id));
    expect(list.messages.every((x) => x.to?.paneId === T.id || x.from.paneId === T.id)).toBe(true);
    expect(list.refusals['pane replaced']).toBe(1);

    // The broadcast: one receipt per agent pane, the shell skipped, a machine that is not here refused.
    expect((await http('/api/walky/broadcast', { body: 'x', member: 'minibuch' })).status).toBe(400);
    const all = WalkyBroadcastAnswer.parse(await (await http('/api/walky/broadcast', { body: 'Wrap up for today.', member: 'all' })).json());
    expect(all.messages.map((x) => x.to?.paneId).sort()).toEqual([S.id, T.id].sort());
    expect(all.skipped).toEqual([{ address: H.address, label: H.label }]);
    await api.waitForRequest((r) => r.kind === 'main' && r.prompt.includes('Wrap up for today.'), 60_000);
    // The broadcast is one id: status prints it, then one line per pane (no token), from the CLI and the phone.
    expect(all.messages.every((x) => x.broadcast === all.id && x.id !== all.id)).toBe(true);
    // Each pane's line says what its own receipt says (the sender is a scripted pane that takes no text: its line differs).
    const finals = await Promise.all(all.messages.map((x) => final(x.id)));
    expect(finals.find((x) => x.to?.paneId === T.id)?.state).toBe('delivered');
    const lines = finals.map((x) => `${x.to!.pane}  ${walkyWords(x.state, x.reason)}  (this machine)`).sort();
    const st = await runCli(['walky', 'status', all.id], env);
    expect(st.code, st.err).toBe(0);
    expect(st.out).toBe(`${[all.id, ...lines].join('\n')}\n`);
    expect(st.out).toContain(`${T.address.replace(/#.*$/, '')}  typed into the pane  (this machine)`);
    const byPhone = (await (await http(`/api/walky/status?id=${all.id}`)).json()) as { broadcast: { id: string; panes: { pane: string; id: string; state: string }[] } };
    expect(byPhone.broadcast.id).toBe(all.id);
    expect(byPhone.broadcast.panes.map((l) => `${l.id} ${l.state}`).sort()).toEqual(finals.map((x) => `${x.id} ${x.state}`).sort());
    // One pane's own id still answers for that pane alone; a bad id and an unknown one are answered clearly.
    expect(((await (await http(`/api/walky/status?id=${all.messages[0]!.id}`)).json()) as { message: WalkyMessage }).message.broadcast).toBe(all.id);
    const badId = await http('/api/walky/status?id=nope');
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: { message: string } }).error.message).toBe('bridge: ?id= names a message id, wt_ and 12 letters or digits');
    expect((await http('/api/walky/status?id=wt_000000000000')).status).toBe(404);
    expect((await http(`/api/walky/status?id=${all.id}`, undefined, {})).status).toBe(401);
  }, 240_000);
});
