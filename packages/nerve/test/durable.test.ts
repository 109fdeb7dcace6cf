/**
 * Nerve attached to a real bridge as a durable agent: sessions are conversations, each Agent
 * call a tool item carrying its agent_id, Stop and "Stop all agents…" from the phone's API.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Turn } from '@collie/testkit';
import { until } from '../../bridge/test/harness';
import { agentIn, durableBridge, post, writeSources } from '../../bridge/test/durable-kit';
import { attachDurable } from '../src/durable/attach';
import { startRig } from './harness';

const say = (text: string, durationMs = 0): Turn => ({ blocks: [{ type: 'text', text }], durationMs });

describe('nerve on the phone', () => {
  it('shows a session as a conversation with its agents as tool items; Stop all from the belt', async () => {
    await using rig = await startRig();
    const socket = join(rig.dir.path, 'nerve.sock');
    const s = rig.gateway.create('Phone session');
    const attached = await attachDurable(rig.gateway, socket);
    try {
      const config = join(rig.dir.path, 'collie-config');
      await writeSources(config, [{ name: 'nerve', socket }]);
      await using bridge = await durableBridge(join(rig.dir.path, 'collie-state'), config);
      await agentIn(bridge.hub, 'nerve');
      const key = `nerve\n${s.id}`;
      await until(bridge.hub, 'the session conversation', (h) => h.durable.conversations.get(key), 15_000);
      expect(bridge.hub.durable.conversations.get(key)).toMatchObject({ title: 'Phone session', subtitle: 'no background agents' });

      rig.api.script({
        main: [() => ({ blocks: [{ type: 'tool_use', name: 'Agent', input: { description: 'Phone worker', prompt: 'work', run_in_background: true, subagent_type: 'general-purpose' } }] }), () => say('The worker runs.')],
        subagent: [() => say('worker done', 60_000)],
      });
      expect((await post(bridge, '/message', { agent: 'nerve', conversationId: s.id, text: 'start a worker', steer: false, request_id: 'm-1' })).outcome).toBe('taken');
      const rec = await rig.waitForAgent(s.id, (r) => r.status === 'running');
      const tool = await until(bridge.hub, 'the agent tool item', (h) => h.durable.threads.get(key)?.find((i) => i.kind === 'tool' && i.callId === rec.agent_id), 30_000);
      expect(tool).toMatchObject({ name: 'Agent', input: `Phone worker · agent_id=${rec.agent_id}`, status: 'running' });
      await until(bridge.hub, 'the live count', (h) => h.durable.conversations.get(key)?.subtitle === 'Background agents: 1 running · 0 done', 30_000);
      await until(bridge.hub, 'the turn ended', (h) => h.durable.conversations.get(key)?.working === false, 30_000);

      expect((await post(bridge, '/button', { agent: 'nerve', conversationId: s.id, buttonId: 'stop-all', turn: bridge.hub.durable.conversations.get(key)?.turn ?? '', request_id: 'b-1' })).outcome).toBe('taken');
      await until(bridge.hub, 'the stopped item', (h) => h.durable.threads.get(key)?.find((i) => i.kind === 'tool' && i.callId === rec.agent_id && i.status === 'failed'), 30_000);
      const item = bridge.hub.durable.threads.get(key)?.find((i) => i.kind === 'tool' && i.callId === rec.agent_id);
      expect(item).toMatchObject({ output: 'stopped (stop_all)' });
      // The header counts as the phone's dock does: a stopped agent is ended, never done.
      await until(bridge.hub, 'the ended count', (h) => h.durable.conversations.get(key)?.subtitle === 'Background agents: 0 running · 0 done · 1 ended', 30_000);
      expect(rig.store.sessionEvents(s.id).map((e) => [e.name, e.requested_by])).toContainEqual(['agents_stop_all_requested', 'phone']);
    } finally {
      await attached.close();
    }
  });
});
