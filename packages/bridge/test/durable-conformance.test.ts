import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import type { AskResult } from '@collie/durable-sdk';
import { until } from './harness';
import { agentIn, answerDropper, durableBridge, post, serveAgent, writeSources, type Transport } from './durable-kit';
import { EventsClient } from './ws-client';
import { join } from 'node:path';

const perm = { kind: 'permission' as const, title: 'Write notes/today.md?', options: [{ id: 'y', action: 'allow' as const, label: 'Yes' }, { id: 'n', action: 'deny' as const, label: 'No' }] };

for (const transport of ['socket', 'http'] as Transport[]) {
  describe(`SDK ↔ bridge over ${transport === 'socket' ? 'a unix socket' : 'HTTP on loopback'}`, () => {
    it('attaches, streams conversations, items and questions into the snapshot and the event stream', async () => {
      await using state = await tempDir('collie-durable');
      const config = join(state.path, 'config');
      const { agent, on, source } = await serveAgent(transport, state.path, { starters: [{ id: 's', label: 'Write a note', onStart: (a) => a.open({ title: 'New' }) }] });
      await writeSources(config, [source]);
      await using bridge = await durableBridge(state.path, config);
      await agentIn(bridge.hub, 'desk');
      const row = await until(bridge.hub, 'starters', (h) => (h.durable.agents.get('desk')?.starters.length ? h.durable.agents.get('desk') : undefined));
      expect(row).toMatchObject({ runtime: 'desk', local: true, state: 'ready', wire: 1, controls: { steer: true, stop: true, message: true }, starters: [{ id: 's', label: 'Write a note' }] });

      const ws = new EventsClient(`${bridge.url}/api/events`, bridge.device.headers);
      await ws.opened;
      await ws.next('sync.reset', (m) => m.type === 'sync.reset');
      const c = agent.open({ title: 'Morning', subtitle: 'notes' });
      const r = c.reply('Hel', { growing: true });
      r.append('lo');
      const opened = await ws.next('conversation', (m) => m.type === 'durable.conversation.updated' && m.conversation.id === c.id);
      expect(opened.type === 'durable.conversation.updated' && opened.conversation).toMatchObject({ agent: 'desk', title: 'Morning', subtitle: 'notes' });
      const grown = await ws.next('grown item', (m) => m.type === 'durable.item.updated' && m.item.kind === 'reply' && m.item.text === 'Hello');
      expect(grown.type === 'durable.item.updated' && grown.item.final).toBe(false);
      r.settle();
      await ws.next('settled', (m) => m.type === 'durable.item.updated' && m.item.kind === 'reply' && m.item.final);
      const q = c.ask({ ...perm, toolCall: { id: 'call-1', name: 'write_file' }, expiresInMs: 60_000 });
      const card = await ws.next('card', (m) => m.type === 'durable.conversation.updated' && m.conversation.questions.length === 1);
      expect(card.type === 'durable.conversation.updated' && card.conversation.questions[0]).toMatchObject({ id: q.question.id, kind: 'permission', answerable: true, shortened: false, toolCall: { id: 'call-1' } });
      const snap = bridge.hub.snapshot().durable!;
      expect(snap.threads.find((t) => t.conversationId === c.id)?.items.map((i) => i.kind)).toEqual(['reply']);
      ws.close();
      await on.close();
    });

    it('every outcome of a tap, with one request id each', async () => {
      await using state = await tempDir('collie-durable');
      const config = join(state.path, 'config');
      const served = await serveAgent(transport, state.path);
      const relay = await answerDropper(served.source);
      await writeSources(config, [relay.source]);
      await using bridge = await durableBridge(state.path, config);
      await agentIn(bridge.hub, 'desk');
      const c = served.agent.open({ title: 'T' });
      c.startTurn();
      // Wrapped: an Ask is thenable, so an async function returning it would wait for its end.
      const asked = async (extra: object = {}) => {
        const q = c.ask({ ...perm, ...extra });
        await until(bridge.hub, 'the question', (h) => [...h.durable.conversations.values()].some((x) => x.questions.some((y) => y.id === q.question.id)));
        return [q] as const;
      };
      const answer = (q: { question: { id: string; version: number } }, id: string, option = 'y', version = q.question.version) =>
        post(bridge, '/answer', { agent: 'desk', conversationId: c.id, questionId: q.question.id, version, answer: { kind: 'permission', option }, request_id: id });
      const lineFor = (title: string) =>
        until(bridge.hub, `the line ${title}`, (h) => [...(h.durable.threads.get(`desk\n${c.id}`) ?? [])].find((i) => i.kind === 'notice' && i.receipt && i.text === title));

      // taken: the card closes, and the same id again is the same result without a second delivery
      const [a] = await asked();
      expect((await answer(a, 'tap-1')).outcome).toBe('taken');
      expect(await a).toMatchObject({ status: 'answered', requestId: 'tap-1' });
      expect((await answer(a, 'tap-1')).outcome).toBe('taken');
      // already answered
      expect((await answer(a, 'tap-2')).outcome).toBe('already_answered');
      await until(bridge.hub, 'the card closed', (h) => h.durable.conversations.get(`desk\n${c.id}`)?.questions.length === 0);

      // decided in the agent: the tap says so, and the chat keeps a line
      const [b] = await asked();
      b.decide();
      expect((await answer(b, 'tap-3')).outcome).toBe('decided');
      await lineFor('Decided in the durable agent: Write notes/today.md?');

      // timed out
      const [t] = await asked({ expiresInMs: 300 });
      expect(await t).toEqual({ status: 'expired' });
      expect((await answer(t, 'tap-4')).outcome).toBe('timed_out');
      await lineFor('Timed out before an answer: Write notes/today.md?');

      // changed under you
      const [ch] = await asked();
      ch.update({ ...perm, title: 'Write notes/tomorrow.md?' });
      expect((await answer(ch, 'tap-5', 'y', 0)).outcome).toBe('changed');
      // refused with the agent's reason
      expect(await answer(ch, 'tap-6', 'zzz', 1)).toMatchObject({ outcome: 'refused', reason: 'That option is not one of the question’s.' });
      // not open: a question the agent does not know
      expect((await post(bridge, '/answer', { agent: 'desk', conversationId: c.id, questionId: 'gone', version: 0, answer: { kind: 'permission', option: 'y' }, request_id: 'tap-7' })).outcome).toBe('not_open');

      // not sure it arrived: the answer is taken but its reply is lost; Try again sends the same id, told once
      relay.dropNext();
      expect((await answer(ch, 'tap-8', 'y', 1)).outcome).toBe('unsure');
      const got: AskResult = await ch;
      expect(got).toMatchObject({ status: 'answered', requestId: 'tap-8' });
      expect((await answer(ch, 'tap-8', 'y', 1)).outcome).toBe('taken');

      // the conversation moved on: a belt tap naming an older turn
      c.buttons([{ id: 'go', label: 'Go', icon: 'play', onTap: () => undefined }]);
      const old = c.meta.turn;
      c.startTurn();
      expect((await post(bridge, '/button', { agent: 'desk', conversationId: c.id, buttonId: 'go', turn: old, request_id: 'tap-9' })).outcome).toBe('moved_on');
      // an agent the bridge does not know: refused, with a reason
      expect(await post(bridge, '/stop', { agent: 'nobody', conversationId: c.id, request_id: 'tap-10' })).toMatchObject({ outcome: 'refused', reason: 'No such durable agent.' });
      // a retry of an unsure id after the agent restarted: may already be applied
      const [q2] = await asked();
      relay.dropNext();
      expect((await answer(q2, 'tap-11')).outcome).toBe('unsure');
      await served.on.close();
      await relay.close();
      const again = await serveAgent(transport, state.path);
      await writeSources(config, [again.source]);
      await until(bridge.hub, 'the restarted agent', (h) => h.durable.agents.get('desk')?.state === 'ready' && bridge.durable.links.get('desk')?.hello?.session === again.agent.session);
      expect((await answer(q2, 'tap-11')).outcome).toBe('may_be_applied');
      await again.on.close();
    });

    it('steer and stop; "stopped" in the thread, and no receipt line for a stopped question', async () => {
      await using state = await tempDir('collie-durable');
      const config = join(state.path, 'config');
      const steered: string[] = [];
      const { agent, on, source } = await serveAgent(transport, state.path, { onMessage: (_c, text, o) => void (o.steer && steered.push(text)) });
      await writeSources(config, [source]);
      await using bridge = await durableBridge(state.path, config);
      await agentIn(bridge.hub, 'desk');
      const c = agent.open({ title: 'T' });
      expect((await post(bridge, '/message', { agent: 'desk', conversationId: c.id, text: 'steer me', steer: true, request_id: 's-1' })).outcome).toBe('moved_on');
      c.startTurn();
      expect((await post(bridge, '/message', { agent: 'desk', conversationId: c.id, text: 'steer me', steer: true, request_id: 's-2' })).outcome).toBe('taken');
      expect(steered).toEqual(['steer me']);
      const echoed = await until(bridge.hub, 'the echo', (h) => h.durable.threads.get(`desk\n${c.id}`)?.find((i) => i.kind === 'user'));
      expect(echoed).toMatchObject({ text: 'steer me', requestId: 's-2' });
      const q = c.ask(perm);
      expect((await post(bridge, '/stop', { agent: 'desk', conversationId: c.id, request_id: 's-3' })).outcome).toBe('taken');
      expect(await q).toEqual({ status: 'stopped' });
      await until(bridge.hub, 'stopped', (h) => h.durable.threads.get(`desk\n${c.id}`)?.find((i) => i.kind === 'notice' && i.text === 'stopped'));
      expect(bridge.hub.durable.threads.get(`desk\n${c.id}`)?.some((i) => i.receipt)).toBe(false);
      expect(bridge.hub.durable.conversations.get(`desk\n${c.id}`)?.working).toBe(false);
      await on.close();
    });
  });
}
