import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClosedListResult, ConversationReadResult } from '@collie/protocol';
import { crewBridge, crewCli, tempDir } from '@collie/testkit';
import type { AskResult } from '@collie/durable-sdk';
import { version as cliVersion } from '../src/commands/paths';
import { keys } from '../src/redact/redact-corpus';
import { until } from './harness';
import { formCrew } from './crew-join';
import { FAST, post, serveAgent, writeSources } from './durable-kit';
import { EventsClient } from './ws-client';

const perm = { kind: 'permission' as const, title: 'Deploy the build?', options: [{ id: 'y', action: 'allow' as const, label: 'Yes' }, { id: 'n', action: 'deny' as const, label: 'No' }] };

describe("a member's durable agents on the lead", () => {
  it('join the one Durable agents section as @<member>/<name>; open, a line and a card answer carried to the member once; update --all asks each member now', async () => {
    await using dir = await tempDir('collie-crew-durable-');
    const [sL, sA, sB] = ['lead', 'alpha', 'beta'].map((n) => join(dir.path, n)) as [string, string, string];
    const noTmux = join(dir.path, 'no-tmux');
    // A real SDK agent on alpha, on a unix socket, listed in alpha's sources.json.
    const messages: string[] = [];
    const served = await serveAgent('socket', dir.path, { onMessage: (_c, text) => void messages.push(text) });
    const configA = join(dir.path, 'alpha-config');
    await writeSources(configA, [served.source]);
    await using lead = await crewBridge(noTmux, sL, 'bluefin');
    // alpha masks nothing itself (COLLIE_REDACT=off): the lead masks what it sends up.
    const alpha = await crewBridge(noTmux, sA, 'minibuch', { configDir: configA, durableBackoff: FAST, redact: false, version: cliVersion });
    await using beta = await crewBridge(noTmux, sB, 'workshop', { version: '0.0.9' });

    await formCrew(sL, lead, 'bluefin', [['alpha', sA, alpha], ['beta', sB, beta]]);
    const events = new EventsClient(`${lead.url}/api/events`, lead.device.headers);
    await events.opened;

    // The member's agent on the lead: its name prefixed, the member's name as its machine.
    const agent = await until(lead.hub, "alpha's desk on the lead", (h) => { const a = h.durable.agents.get('@alpha/desk'); return a?.state === 'ready' && a; }, 30_000);
    expect(agent).toMatchObject({ name: '@alpha/desk', machine: 'alpha', runtime: 'desk', controls: { message: true } });
    expect(lead.hub.durable.agents.has('desk')).toBe(false);

    // A conversation on alpha reaches the lead's event stream, masked by the lead.
    const c = served.agent.open({ title: 'Release' });
    c.reply(`Key for the deploy: ${keys.anthropic}`);
    const item = await events.next('the reply on the lead', (m) => m.type === 'durable.item.updated' && m.agent === '@alpha/desk' && m.item.kind === 'reply');
    expect(item.type === 'durable.item.updated' && item.conversationId).toBe(c.id);
    const text = item.type === 'durable.item.updated' && item.item.kind === 'reply' ? item.item.text : '';
    expect(text).toContain('sk-ant-…');
    expect(text).not.toContain(keys.anthropic);
    expect(lead.hub.durable.conversations.get(`@alpha/desk\n${c.id}`)).toMatchObject({ agent: '@alpha/desk', title: 'Release' });

    // Opening it from the lead's phone reads it from alpha.
    const q = new URLSearchParams({ agent: '@alpha/desk', id: c.id });
    const read = ConversationReadResult.parse(await (await fetch(`${lead.url}/api/durable/conversation?${q}`, { headers: lead.device.headers })).json());
    expect(read.conversation).toMatchObject({ agent: '@alpha/desk', id: c.id, title: 'Release' });
    expect(read.items.map((i) => (i.kind === 'reply' ? i.text : i.kind))).toEqual([`Key for the deploy: sk-ant-…`]);
    const missing = await fetch(`${lead.url}/api/durable/conversation?${new URLSearchParams({ agent: '@alpha/desk', id: 'nope' })}`, { headers: lead.device.headers });
    expect(missing.status).toBe(404);
    expect(ClosedListResult.parse(await (await fetch(`${lead.url}/api/durable/closed?agent=${encodeURIComponent('@alpha/desk')}`, { headers: lead.device.headers })).json())).toEqual({ state: 'no_list' });

    // A line from the lead's phone: taken by alpha's agent once, whatever the phone retries.
    expect((await post(lead, '/message', { agent: '@alpha/desk', conversationId: c.id, text: 'ship it', steer: false, request_id: 'crew-dm-1' })).outcome).toBe('taken');
    expect((await post(lead, '/message', { agent: '@alpha/desk', conversationId: c.id, text: 'ship it', steer: false, request_id: 'crew-dm-1' })).outcome).toBe('taken');
    expect(messages).toEqual(['ship it']);
    await until(lead.hub, 'the line in the lead thread', (h) => (h.durable.threads.get(`@alpha/desk\n${c.id}`) ?? []).some((i) => i.kind === 'user' && i.text === 'ship it'));
    // The member checks the body against the phone's own schema.
    expect((await fetch(`${lead.url}/api/durable/message`, { method: 'POST', headers: { 'content-type': 'application/json', ...lead.device.headers }, body: JSON.stringify({ agent: '@alpha/desk', conversationId: c.id, text: '', steer: false, request_id: 'crew-dm-2' }) })).status).toBe(400);

    // A card answered from the lead's phone.
    c.startTurn();
    const ask = c.ask(perm);
    const carded = await until(lead.hub, 'the card on the lead', (h) => h.durable.conversations.get(`@alpha/desk\n${c.id}`)?.questions.find((x) => x.id === ask.question.id), 15_000);
    expect(carded).toMatchObject({ kind: 'permission', title: 'Deploy the build?', answerable: true });
    const answer = { agent: '@alpha/desk', conversationId: c.id, questionId: ask.question.id, version: ask.question.version, answer: { kind: 'permission', option: 'y' }, request_id: 'crew-da-1' };
    expect((await post(lead, '/answer', answer)).outcome).toBe('taken');
    const got: AskResult = await ask;
    expect(got).toMatchObject({ status: 'answered', requestId: 'crew-da-1' });
    // The same id again: the member's journal answers, nothing is delivered twice.
    expect((await post(lead, '/answer', answer)).outcome).toBe('taken');
    await until(lead.hub, 'the card closed on the lead', (h) => h.durable.conversations.get(`@alpha/desk\n${c.id}`)?.questions.length === 0);

    // update --all: each member asked now, over its stream.
    const upd = await crewCli(sL, ['update', '--all', '--json']);
    expect(upd.code, upd.stderr).toBe(0);
    expect(upd.json).toEqual({
      lead: cliVersion,
      members: [
        { name: 'alpha', version: cliVersion, asked: true, reachable: true, update: false, problem: null },
        { name: 'beta', version: '0.0.9', asked: true, reachable: true, update: true, problem: null },
      ],
    });
    const words = await crewCli(sL, ['update', '--all']);
    expect(words.stdout).toBe(`This lead runs ${cliVersion}. Collie runs no code on another machine; on each of these, install ${cliVersion} and run collie update:\n  beta: runs 0.0.9\n`);
    expect((await crewCli(sA, ['update', '--all'])).code).toBe(4);

    // alpha drops: its agent stays on the lead, unreachable; a tap is unsure (try again), never lost silently.
    await alpha.stop();
    const away = await until(lead.hub, 'alpha desk unreachable', (h) => { const a = h.durable.agents.get('@alpha/desk'); return a?.state === 'unreachable' && a; }, 15_000);
    expect(away.problem).toMatch(/^alpha is not connected to the lead \(last seen \d\d:\d\d UTC\)\.$/);
    expect(await post(lead, '/message', { agent: '@alpha/desk', conversationId: c.id, text: 'again', steer: false, request_id: 'crew-dm-3' })).toMatchObject({ outcome: 'unsure' });
    const later = await crewCli(sL, ['update', '--all', '--json']);
    expect((later.json as { members: unknown[] }).members[0]).toEqual({ name: 'alpha', version: cliVersion, asked: false, reachable: false, update: false, problem: 'not connected to the lead' });

    // Removed: its agents leave the lead.
    expect((await crewCli(sL, ['remove', 'alpha'])).code).toBe(0);
    await lead.crew.reload();
    await until(lead.hub, 'alpha desk gone', (h) => !h.durable.agents.has('@alpha/desk'), 10_000);
    events.ws.close();
    // With the lead's bridge stopped nobody can be asked: the versions last seen, and it says so.
    await lead.stop();
    const offline = await crewCli(sL, ['update', '--all']);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(`The bridge is not running here, so no member was asked; these are the versions last seen.\nThis lead runs ${cliVersion}. Collie runs no code on another machine; on each of these, install ${cliVersion} and run collie update:\n  beta: last seen running 0.0.9 (the bridge on this machine is not running, so it could not ask)\n`);
    await served.on.close();
  }, 180_000);
});
