import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { type DurableItem, type PaneChatMessage, ServerMessage } from '@collie/protocol';

/** A chat subscriber on /api/events that keeps each pane's chat as the phone would, with arrival times. */
export class ChatClient {
  readonly ws: WebSocket;
  readonly chats = new Map<string, { source: string | null; reason: string | null; items: DurableItem[] }>();
  /** When each item (by pane and text) first arrived. */
  readonly arrived = new Map<string, number>();
  #waiters: Array<() => void> = [];
  constructor(url: string, headers: Record<string, string>) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/events`, { headers });
    this.ws.on('message', (data) => {
      const m = ServerMessage.parse(JSON.parse(data.toString()));
      if (m.type === 'pane.chat') this.#apply(m);
    });
  }
  opened(): Promise<void> {
    return new Promise((r, j) => (this.ws.once('open', () => r()), this.ws.once('error', j)));
  }
  subscribe(id: string): void {
    this.ws.send(JSON.stringify({ type: 'chat.subscribe', id }));
  }
  #apply(m: PaneChatMessage): void {
    const now = Date.now();
    const chat = m.reset ? { source: m.source?.path ?? null, reason: m.reason, items: [] as DurableItem[] } : this.chats.get(m.id)!;
    for (const it of m.items) {
      const at = chat.items.findIndex((x) => x.id === it.id);
      if (at >= 0) chat.items[at] = it;
      else {
        // As the phone does (web `applyChat`): a new item goes to its place (a database row may show after a later one).
        const after = chat.items.findIndex((x) => placeOf(x.id) > placeOf(it.id));
        chat.items.splice(after < 0 ? chat.items.length : after, 0, it);
      }
      const key = `${m.id}\n${words(it)}`;
      if (!this.arrived.has(key)) this.arrived.set(key, now);
    }
    this.chats.set(m.id, chat);
    this.#waiters.splice(0).forEach((w) => w());
  }
  async until<T>(what: string, check: () => T | undefined | false, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = check();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify([...this.chats.values()].map((c) => c.items.map(words)))} ${JSON.stringify([...this.chats.values()].map((c) => c.reason))}`);
      await new Promise<void>((r) => (this.#waiters.push(r), setTimeout(r, 250)));
    }
  }
  items(id: string): string[] {
    return (this.chats.get(id)?.items ?? []).map(words);
  }
}

/** Where an item stands in its transcript (its line's offset, or an OpenCode part's rowid, then its part). */
function placeOf(id: string): number {
  const [n, part] = id.split('.').map(Number);
  return Number.isFinite(n) ? n! + (Number.isFinite(part) ? part! / 1e4 : 0) : 0;
}

/** An item in a few words, for comparing a chat with what was scripted. */
export function words(it: DurableItem): string {
  if (it.kind === 'tool') return `tool ${it.name} ${it.input} [${it.status}]${it.output ? ` ${it.output.split('\n')[0]}` : ''}`;
  if (it.kind === 'link') return `link ${it.url}`;
  return `${it.kind} ${it.text}`;
}

/** When `needle` first shows in the file, seen by a watcher of our own (and a check every 20 ms). */
export function landed(path: () => string | null, needle: string, ms = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + ms;
    const look = async () => {
      const p = path();
      const text = p ? await readFile(p, 'utf8').catch(() => '') : '';
      if (text.includes(needle)) return resolve(Date.now());
      if (Date.now() > end) return reject(new Error(`never landed: ${needle}`));
      setTimeout(() => void look(), 20);
    };
    void look();
  });
}

/** A {@link ChatClient} on `bridge`'s events, open and subscribed to the panes `ids`; closed when disposed (`await using`). */
export async function openChat(bridge: { url: string; device: { headers: Record<string, string> } }, ...ids: string[]): Promise<ChatClient & AsyncDisposable> {
  const client = new ChatClient(bridge.url, bridge.device.headers);
  await client.opened();
  for (const id of ids) client.subscribe(id);
  return Object.assign(client, { [Symbol.asyncDispose]: () => Promise.resolve(client.ws.close()) });
}
