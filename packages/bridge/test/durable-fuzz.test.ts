import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@collie/testkit';
import { until } from './harness';
import { agentIn, durableBridge, post, serveAgent, writeSources } from './durable-kit';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Frames a hostile agent writes: oversized, malformed, and well-formed with hostile words. */
function hostileFrames(): string[] {
  const conv = { id: 'h1', title: 'Hostile\u0000\u001b[31m', openedAt: 1, updatedAt: 1 };
  const random = fc.sample(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ type: fc.constantFrom('item', 'item.append', 'question.asked', 'conversation.updated', 'sync', 'nope'), cursor: fc.integer(), conversationId: fc.constantFrom('h1', 'x'), item: fc.jsonValue(), text: fc.string(), question: fc.jsonValue() }).map((v) => JSON.stringify(v)),
    ),
    { numRuns: 400, seed: 42 },
  );
  return [
    JSON.stringify({ type: 'sync', cursor: 0, conversations: [conv], starters: [] }),
    JSON.stringify({ type: 'item', cursor: 1, conversationId: 'h1', item: { kind: 'reply', id: 'big', at: 1, text: 'x'.repeat(10 * 1024 * 1024) } }),
    JSON.stringify({ type: 'item', cursor: 2, conversationId: 'h1', item: { kind: 'markdown', id: 'md', at: 1, text: '# Hi <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))' } }),
    JSON.stringify({ type: 'item', cursor: 3, conversationId: 'h1', item: { kind: 'link', id: 'js', at: 1, url: 'javascript:alert(1)', label: 'click' } }),
    JSON.stringify({ type: 'item', cursor: 4, conversationId: 'h1', item: { kind: 'notice', id: 'ctl', at: 1, text: 'bell\u0007 nul\u0000 esc\u001b[2J c1\u009b rtl\u202e end' } }),
    JSON.stringify({ type: 'item', cursor: 5, conversationId: 'h1', item: { kind: 'reply', id: 'big-ok', at: 1, text: 'y'.repeat(1024 * 1024) } }),
    ...random,
    JSON.stringify({ type: 'item', cursor: 99, conversationId: 'h1', item: { kind: 'notice', id: 'last', at: 1, text: 'still reading' } }),
  ];
}

describe('the bridge reading a hostile durable agent', () => {
  it('drops or cleans every bad frame, never crashes, and the other durable agents keep working', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    const frames = hostileFrames();
    const hostile = createServer((req, res: ServerResponse) => {
      if (req.url === '/hello') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ wire: 1, runtime: 'evil\u0000', session: 'evil' }));
      if (req.url?.startsWith('/events')) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        for (const f of frames) res.write(`${f}\n`);
        return;
      }
      res.writeHead(200).end('not json at all \u0000');
    });
    await new Promise<void>((r) => hostile.listen(join(state.path, 'evil.sock'), r));
    const good = await serveAgent('socket', state.path);
    await writeSources(config, [{ name: 'evil', socket: join(state.path, 'evil.sock') }, good.source]);
    await using bridge = await durableBridge(state.path, config);
    await agentIn(bridge.hub, 'desk');
    await agentIn(bridge.hub, 'evil');
    const thread = () => bridge.hub.durable.threads.get('evil\nh1') ?? [];
    await until(bridge.hub, 'the last hostile frame', () => thread().find((i) => i.id === 'last'), 30_000);

    const link = bridge.durable.links.get('evil')!;
    expect(link.badFrames).toBeGreaterThan(100);
    expect(thread().find((i) => i.id === 'big')).toBeUndefined(); // over 4 MiB: dropped whole
    const bigOk = thread().find((i) => i.id === 'big-ok');
    expect(bigOk?.kind === 'reply' && bigOk.text.length).toBe(100_000);
    expect(bigOk?.shortened).toBe(true);
    expect(thread().find((i) => i.id === 'js')).toMatchObject({ kind: 'link', href: null });
    const md = thread().find((i) => i.id === 'md');
    expect(md?.kind === 'markdown' && md.text).toContain('<script>'); // text, for the phone to draw as text
    const ctl = thread().find((i) => i.id === 'ctl');
    expect(ctl?.kind === 'notice' && ctl.text).toBe('bell nul esc[2J c1 rtl end');
    const snap = JSON.stringify(bridge.hub.snapshot().durable);
    for (const c of bridge.hub.durable.conversations.values()) expect(CONTROL.test(JSON.stringify(c))).toBe(false);
    expect(bridge.hub.durable.agents.get('evil')?.runtime).toBe('evil');
    expect(snap.length).toBeLessThan(5 * 1024 * 1024);

    // The bridge still answers, and the good agent still works end to end.
    expect((await fetch(`${bridge.url}/api/health`, { headers: bridge.device.headers })).ok).toBe(true);
    const c = good.agent.open({ title: 'Fine' });
    const q = c.ask({ kind: 'text', title: 'Name?' });
    await until(bridge.hub, 'the good card', (h) => h.durable.conversations.get(`desk\n${c.id}`)?.questions.length === 1);
    expect((await post(bridge, '/answer', { agent: 'desk', conversationId: c.id, questionId: q.question.id, version: 0, answer: { kind: 'text', text: 'Ada' }, request_id: 'fz-1' })).outcome).toBe('taken');
    expect((await post(bridge, '/answer', { agent: 'evil', conversationId: 'h1', questionId: 'q', version: 0, answer: { kind: 'text', text: 'x' }, request_id: 'fz-2' })).outcome).toBe('unsure');
    await good.on.close();
    await new Promise<void>((r) => (hostile.closeAllConnections(), hostile.close(() => r())));
  });
});
