/**
 * A hostile durable agent written against the raw wire (docs/wire-v1.md), no SDK: its hello,
 * then an event stream that opens a conversation (`long`), then `conversations` conversations
 * each carrying one item of `itemBytes` bytes, then pours `longItems` small items into `long`.
 */
import { createServer, type Server } from 'node:http';

export interface Flood {
  conversations: number;
  itemBytes: number;
  longItems: number;
}

export const FLOOD: Flood = { conversations: 300, itemBytes: 100_000, longItems: 700 };

/** The frames, in order; the last is an item `last` in conversation `long` (the test waits for it). */
export function floodFrames(f: Flood = FLOOD): string[] {
  const frames: string[] = [JSON.stringify({ type: 'sync', cursor: 0, conversations: [], starters: [] })];
  let cursor = 1;
  frames.push(JSON.stringify({ type: 'conversation.opened', cursor: cursor++, conversation: { id: 'long', title: 'Long one', openedAt: 1, updatedAt: 1, items: [], questions: [] } }));
  for (let i = 0; i < f.conversations; i++) {
    const conversation = { id: `c${i}`, title: `Flood ${i}`, openedAt: 1_000 + i, updatedAt: 1_000 + i, items: [{ kind: 'reply', id: `r${i}`, at: 1_000 + i, text: `${i} ${'x'.repeat(f.itemBytes)}` }], questions: [] };
    frames.push(JSON.stringify({ type: 'conversation.opened', cursor: cursor++, conversation }));
  }
  for (let i = 0; i < f.longItems; i++) frames.push(JSON.stringify({ type: 'item', cursor: cursor++, conversationId: 'long', item: { kind: 'notice', id: `n${i}`, at: 2_000 + i, text: `line ${i}` } }));
  frames.push(JSON.stringify({ type: 'item', cursor: cursor++, conversationId: 'long', item: { kind: 'notice', id: 'last', at: 9_999, text: 'last' } }));
  return frames;
}

/** Serve the flood on a unix socket at `path`. */
export async function serveFlood(path: string, f: Flood = FLOOD): Promise<Server & AsyncDisposable> {
  const frames = floodFrames(f);
  const server = createServer((req, res) => {
    if (req.url === '/hello') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ wire: 1, runtime: 'flood', session: 'flood-1' }));
    if (req.url?.startsWith('/events')) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const line of frames) res.write(`${line}\n`);
      return; // the stream stays open
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(path, r));
  return Object.assign(server, {
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
