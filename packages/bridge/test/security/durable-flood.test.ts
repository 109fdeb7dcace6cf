/**
 * Attack replay: one durable agent opens 300 conversations of 100 KB each, and pours 700 items
 * into one more. Before the caps the phone's `/api/snapshot` grew to 30 MB. Now the agent is
 * held to 100 open conversations, 500 items a conversation and 2 MB of the snapshot, says so
 * in a sentence on its record, and the other durable agent is not slowed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS as DURABLE_KEEP, type ModelEvent } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { agentIn, durableBridge, serveAgent, writeSources } from '../durable-kit';
import { until } from '../harness';
import { FLOOD, serveFlood } from './hostile-durable';

describe('attack replay: a durable agent floods the snapshot', () => {
  it('keeps 100 open conversations, 500 items each and 2 MB of the snapshot per agent, with the notice in the snapshot and the events; the other agent answers at once', async () => {
    await using state = await tempDir('collie-sec-flood-');
    const config = join(state.path, 'config');
    await using flood = await serveFlood(join(state.path, 'flood.sock'));
    void flood;
    const good = await serveAgent('socket', state.path);
    await writeSources(config, [{ name: 'flood', socket: join(state.path, 'flood.sock') }, good.source]);
    await using bridge = await durableBridge(state.path, config);
    const events: ModelEvent[] = [];
    const off = bridge.hub.subscribe((e) => void events.push(e));
    await agentIn(bridge.hub, 'desk');
    const thread = (id: string) => bridge.hub.durable.threads.get(`flood\n${id}`) ?? [];
    await until(bridge.hub, 'the flood read to its end', () => thread('long').find((i) => i.id === 'last'), 60_000);

    const snapRes = await fetch(`${bridge.url}/api/snapshot`, { headers: bridge.device.headers });
    const text = await snapRes.text();
    const bytes = Buffer.byteLength(text);
    const snap = JSON.parse(text) as { durable: { agents: { name: string; kept: string | null }[]; conversations: { agent: string; id: string }[]; threads: { agent: string; conversationId: string; items: { id: string; kind: string; text?: string }[] }[] } };
    const floodBytes = Buffer.byteLength(JSON.stringify({ c: snap.durable.conversations.filter((c) => c.agent === 'flood'), t: snap.durable.threads.filter((t) => t.agent === 'flood') }));
    console.log(`snapshot ${bytes} bytes, the flooding agent's part ${floodBytes} bytes`);
    expect(bytes).toBeLessThan(DURABLE_KEEP.agentBytes + 200_000);
    expect(floodBytes).toBeLessThanOrEqual(DURABLE_KEEP.agentBytes);
    const open = snap.durable.conversations.filter((c) => c.agent === 'flood');
    expect(open).toHaveLength(DURABLE_KEEP.openConversations);
    // The first 100 opened are the ones kept: the long one and c0…c98.
    expect(open.some((c) => c.id === 'long')).toBe(true);
    expect(open.some((c) => c.id === 'c98')).toBe(true);
    expect(open.some((c) => c.id === 'c99')).toBe(false);
    for (const t of snap.durable.threads.filter((x) => x.agent === 'flood')) expect(t.items.length).toBeLessThanOrEqual(DURABLE_KEEP.itemsKept);

    // The sentence on the agent's record, in the snapshot and in the events.
    const kept = snap.durable.agents.find((a) => a.name === 'flood')?.kept ?? '';
    expect(kept).toMatch(/^This durable agent sent more than Collie keeps: /);
    expect(kept).toContain('201 conversations past the first 100 open ones are not shown');
    expect(kept).toContain('items past the newest 500 of a conversation were dropped');
    expect(kept).toContain('older items were dropped to keep it under 2 MB on the phone');
    expect(events.some((e) => e.type === 'durable.agent.updated' && e.agent.name === 'flood' && e.agent.kept === kept)).toBe(true);
    // A conversation that lost items says so in its own chat.
    const trimmed = snap.durable.threads.filter((t) => t.agent === 'flood' && t.items[0]?.id === 'collie:kept');
    expect(trimmed.length).toBeGreaterThan(0);
    expect(trimmed[0]!.items[0]!.text).toMatch(/^This durable agent sent more than Collie keeps: older items of this conversation were dropped/);
    off();

    // The other agent is not slowed: a conversation it opens now shows on the bridge within a second.
    const t0 = Date.now();
    const c = good.agent.open({ title: 'Fine' });
    c.reply('still here');
    await until(bridge.hub, 'the good agent', (h) => (h.durable.threads.get(`desk\n${c.id}`) ?? []).length > 0, 5_000);
    const took = Date.now() - t0;
    console.log(`the other agent's conversation showed in ${took} ms`);
    expect(took).toBeLessThan(1_000);
    expect(bridge.hub.durable.agents.get('desk')?.kept).toBeNull();
    await good.on.close();
    expect(FLOOD.conversations).toBe(300);
  }, 120_000);
});
