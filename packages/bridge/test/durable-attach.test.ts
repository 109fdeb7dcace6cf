import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIRE_HEADER } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import { until } from './harness';
import { agentIn, closedList, durableBridge, serveAgent, writeSources } from './durable-kit';

/** A hand-made agent on a unix socket, for what the SDK never does (another version, silence, garbage). */
async function rawAgent(path: string, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ close(): Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(path, r));
  return { close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}
const json = (res: ServerResponse, status: number, body: unknown) => (res.writeHead(status, { 'content-type': 'application/json' }), res.end(JSON.stringify(body)));

describe('attaching durable agents', () => {
  it('refuses another wire version both ways, with the page’s words', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    // An agent that speaks v2: its hello says so.
    const newer = await rawAgent(join(state.path, 'v2.sock'), (req, res) =>
      req.url === '/hello' ? json(res, 200, { wire: 2, runtime: 'future', session: 'x' }) : json(res, 500, {}),
    );
    // An agent whose SDK speaks v2 and refuses this bridge's v1 requests.
    const refuses = await rawAgent(join(state.path, 'refuses.sock'), (req, res) =>
      json(res, 400, { error: { code: 'wire_version', message: `speaks v2; caller spoke v${String(req.headers[WIRE_HEADER])}`, wire: 2 } }),
    );
    await writeSources(config, [
      { name: 'newer', socket: join(state.path, 'v2.sock') },
      { name: 'refuses', socket: join(state.path, 'refuses.sock') },
    ]);
    await using bridge = await durableBridge(state.path, config);
    for (const name of ['newer', 'refuses']) {
      const a = await agentIn(bridge.hub, name, 'version_mismatch');
      expect(a.caution).toBe("Program speaks wire v2, this Collie speaks v1. Update Collie, or the durable agent's SDK.");
      expect(await closedList(bridge, name)).toEqual({ state: 'version_mismatch', note: "The durable agent speaks wire v2, this Collie speaks v1. Update Collie, or the agent's SDK." });
    }
    // And the SDK refuses a caller that speaks another version, naming its own.
    const { on } = await serveAgent('http', state.path);
    const res = await fetch(`${on.address}/hello`, { headers: { [WIRE_HEADER]: '2' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'wire_version', wire: 1 } });
    await on.close();
    await newer.close();
    await refuses.close();
  });

  it('reads the closed list 100 at a time, and says why it cannot', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    const closed = Array.from({ length: 250 }, (_, i) => ({ id: `old-${i}`, title: `Old ${i}`, subtitle: null, updatedAt: 1_000_000 - i }));
    const keeps = await serveAgent('socket', state.path, {
      closedList: async (cursor) => {
        const from = Number(cursor ?? 0);
        return { conversations: closed.slice(from, from + 100), next: from + 100 < closed.length ? String(from + 100) : null };
      },
    });
    const keepsNone = await serveAgent('socket', state.path, {}, 'plain');
    const silent = await rawAgent(join(state.path, 'silent.sock'), (req, res) => {
      if (req.url === '/hello') return json(res, 200, { wire: 1, runtime: 'silent', session: 's', controls: { history: true } });
      if (req.url?.startsWith('/events')) return void res.writeHead(200, { 'content-type': 'application/x-ndjson' }).write('{"type":"sync","cursor":0,"conversations":[],"starters":[]}\n');
      if (req.url?.startsWith('/closed')) return; // never answers
      json(res, 404, {});
    });
    const garbage = await rawAgent(join(state.path, 'garbage.sock'), (req, res) => {
      if (req.url === '/hello') return json(res, 200, { wire: 1, runtime: 'garbage', session: 'g', controls: { history: true } });
      if (req.url?.startsWith('/events')) return void res.writeHead(200).write('{"type":"sync","cursor":0,"conversations":[],"starters":[]}\n');
      json(res, 200, { keepsList: 'perhaps' });
    });
    await writeSources(config, [
      keeps.source,
      keepsNone.source,
      { name: 'silent', socket: join(state.path, 'silent.sock') },
      { name: 'garbage', socket: join(state.path, 'garbage.sock') },
    ]);
    await using bridge = await durableBridge(state.path, config);
    for (const n of ['desk', 'plain', 'silent', 'garbage']) await agentIn(bridge.hub, n);
    expect(bridge.hub.durable.agents.get('desk')?.controls.history).toBe(true);
    expect(bridge.hub.durable.agents.get('plain')?.controls.history).toBe(false);

    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await closedList(bridge, 'desk', cursor);
      if (page.state !== 'ok') throw new Error(`page: ${JSON.stringify(page)}`);
      pages.push(page.conversations.length);
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(pages).toEqual([100, 100, 50]);
    expect(await closedList(bridge, 'plain')).toEqual({ state: 'no_list' });
    expect(await closedList(bridge, 'silent')).toEqual({ state: 'no_answer' });
    expect((await closedList(bridge, 'garbage')).state).toBe('failed');
    await keeps.on.close();
    await keepsNone.on.close();
    await silent.close();
    await garbage.close();
  });

  it('an agent that restarts and asks about the same tool call again: it shows, and no second push is decided', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    const first = await serveAgent('socket', state.path);
    await writeSources(config, [first.source]);
    await using bridge = await durableBridge(state.path, config);
    await agentIn(bridge.hub, 'desk');
    const ask = (agent: typeof first.agent) => {
      const c = agent.open({ title: 'Save a note' });
      const q = c.ask({ kind: 'permission', title: 'Write it?', toolCall: { id: 'call-7', name: 'write_file' }, options: [{ id: 'y', action: 'allow', label: 'Yes' }], push: { title: 'desk wants to write', line: 'notes/today.md' } });
      return q.question.id;
    };
    const q1 = ask(first.agent);
    await until(bridge.hub, 'the first card', (h) => [...h.durable.conversations.values()].some((c) => c.questions.some((q) => q.id === q1)));
    expect(bridge.durable.pushes).toEqual([
      expect.objectContaining({ kind: 'question', agent: 'desk', heading: 'Permission needed in Save a note', title: 'desk wants to write', line: 'notes/today.md' }),
    ]);
    await first.on.close();
    const second = await serveAgent('socket', state.path);
    const q2 = ask(second.agent);
    await until(bridge.hub, 'the card asked again', (h) => [...h.durable.conversations.values()].some((c) => c.questions.some((q) => q.id === q2)), 20_000);
    expect(q2).not.toBe(q1);
    expect(bridge.durable.pushes).toHaveLength(1);
    await second.on.close();
  });

  it('picks sources.json changes up without a restart; refuses a remote URL without https or a token', async () => {
    await using state = await tempDir('collie-durable');
    const config = join(state.path, 'config');
    await using bridge = await durableBridge(state.path, config);
    expect(bridge.hub.snapshot().durable?.agents).toEqual([]);
    const a = await serveAgent('http', state.path);
    await writeSources(config, [
      a.source,
      { name: 'far', url: 'https://agents.example.net' },
      { name: 'plain', url: 'http://agents.example.net:8080' },
    ]);
    await agentIn(bridge.hub, 'desk');
    const far = await agentIn(bridge.hub, 'far', 'unreachable');
    expect(far).toMatchObject({ local: false, problem: 'refused: a remote durable agent needs a token' });
    expect((await agentIn(bridge.hub, 'plain', 'unreachable')).problem).toBe('refused: plain http:// is only for 127.0.0.1 or localhost; a remote durable agent needs https://');
    await writeSources(config, []);
    await until(bridge.hub, 'all removed', (h) => h.durable.agents.size === 0);
    await a.on.close();
  });
});
