import { describe, expect, it } from 'vitest';
import { startTmux, tempDir } from '@collie/testkit';
import { bridgeFor, until } from './harness';
import { EventsClient } from './ws-client';

describe('/api/events on a real bridge', () => {
  it('starts with hello and a snapshot, then streams model events; a client resumes with since', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const a = await tmux.newSession('one', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    await until(bridge.hub, 'the pane', (h) => h.panes.get(`${tmux.name}:${a}`));

    const c = new EventsClient(`${bridge.url}/api/events`, bridge.device.headers);
    await c.opened;
    const hello = await c.next('hello', (m) => m.type === 'hello');
    expect(hello).toMatchObject({ resumed: false, run: bridge.hub.run });
    const reset = await c.next('sync.reset', (m) => m.type === 'sync.reset');
    expect(reset.type === 'sync.reset' && reset.snapshot.panes.map((p) => p.tmuxId)).toEqual([a]);
    const seqAtReset = reset.type === 'sync.reset' ? reset.snapshot.seq : 0;
    c.close();

    const b = await tmux.newSession('two', { cmd: 'sh' });
    await until(bridge.hub, 'the new pane', (h) => h.panes.get(`${tmux.name}:${b}`));
    const r = new EventsClient(`${bridge.url}/api/events?since=${seqAtReset}&run=${bridge.hub.run}`, bridge.device.headers);
    await r.opened;
    expect(await r.next('hello', (m) => m.type === 'hello')).toMatchObject({ resumed: true });
    const added = await r.next('the missed pane.added', (m) => m.type === 'pane.added' && m.pane.tmuxId === b);
    expect(added.type === 'pane.added' && added.seq).toBeGreaterThan(seqAtReset);
    const seqs = r.messages.flatMap((m) => ('seq' in m && m.type !== 'hello' ? [m.seq] : []));
    expect(seqs).toEqual(seqs.map((_, i) => seqAtReset + 1 + i)); // no gap, no repeat
    r.close();

    const other = new EventsClient(`${bridge.url}/api/events?since=${seqAtReset}&run=another-run`, bridge.device.headers);
    await other.opened;
    expect(await other.next('hello', (m) => m.type === 'hello')).toMatchObject({ resumed: false });
    await other.next('sync.reset', (m) => m.type === 'sync.reset');
    other.close();
  });

  it('sends screen frames of a watched pane as it changes, with secrets masked', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    const a = await tmux.newSession('one', { cmd: 'sh', width: 100, height: 20 });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    await until(bridge.hub, 'the pane', (h) => h.panes.get(`${tmux.name}:${a}`));
    const c = new EventsClient(`${bridge.url}/api/events`, bridge.device.headers);
    await c.opened;
    c.send({ type: 'screen.subscribe', id: `${tmux.name}:${a}` });
    const first = await c.next('a first frame', (m) => m.type === 'pane.screen');
    expect(first.type === 'pane.screen' && first.width).toBe(100);
    await tmux.typeText(a, 'echo hello-mirror sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789');
    await tmux.sendKeys(a, 'Enter');
    const frame = await c.next('the echoed line', (m) => m.type === 'pane.screen' && m.lines.some((l) => l.startsWith('hello-mirror')));
    const text = frame.type === 'pane.screen' ? frame.lines.join('\n') : '';
    expect(text).not.toContain('AbCdEfGhIjKlMnOpQrStUvWxYz0123456789');
    c.close();
  });

  it('answers bad socket messages with an error and keeps the connection; refuses a foreign origin', async () => {
    await using tmux = await startTmux();
    await using state = await tempDir('collie-state');
    await tmux.newSession('one', { cmd: 'sh' });
    await using bridge = await bridgeFor(tmux.tmpDir, state.path);
    const c = new EventsClient(`${bridge.url}/api/events`, bridge.device.headers);
    await c.opened;
    for (const bad of ['{nope', '{"type":"screen.subscribe"}', '{"type":"launch.missiles"}', JSON.stringify({ type: 'screen.subscribe', id: 'default:%999' })]) c.send(bad);
    const errors = () => c.messages.filter((m) => m.type === 'error');
    await c.next('four errors', () => errors().length >= 4);
    expect(errors().map((e) => e.type === 'error' && e.code)).toEqual(['bad_json', 'bad_request', 'bad_request', 'not_found']);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    c.close();
    const evil = new EventsClient(`${bridge.url}/api/events`, { origin: 'http://evil.example', ...bridge.device.headers });
    await expect(evil.opened).rejects.toThrow(/403/);
  });
});
