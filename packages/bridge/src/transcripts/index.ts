import type { Mask, ModelEvent, Pane, PaneChatMessage, PaneChatPage, PaneUsage } from '@collie/protocol';
import { readerOf } from './finders';
import { PaneChat } from './pane-chat';

/**
 * A pane's Chat: the agent's conversation read from the transcript it writes itself, never
 * from its screen. One `PaneChat` per pane someone follows (over `/api/events`) or pages
 * (`GET /api/panes/:id/chat`); a pane nobody follows any more is let go.
 */
export interface PaneChatsDeps {
  panes: { get(id: string): Pane | undefined };
  subscribe(listener: (e: ModelEvent) => void): () => void;
  redact: Mask;
  /** Where procfs is; tests point it elsewhere. */
  procRoot?: string;
  /**
   * A pane's usage as its agent's transcript records it (null: none). Given, every pane whose
   * agent's transcripts Collie reads keeps its chat open, followed or not: the usage rides the
   * same follower (inotify, no polling).
   */
  usage?: (id: string, usage: PaneUsage | null) => void;
  /** Every pane now (for `usage`: the panes there before the chats started). */
  all?: () => Iterable<Pane>;
}

export interface PaneChats {
  /** A page of the pane's chat; null when there is no such pane. */
  page(id: string, before: number | null, limit: number): Promise<PaneChatPage | null>;
  /** Sends the pane's chat to `send` (a first page, then changes) until the returned function is called; null: no such pane. */
  watch(id: string, send: (m: PaneChatMessage) => void): (() => void) | null;
  stop(): void;
}

export function startPaneChats(d: PaneChatsDeps): PaneChats {
  const chats = new Map<string, PaneChat>();
  const started = new Map<string, Promise<void>>();
  /** Chats opened for a page only, closed when their last use ends. */
  const uses = new Map<string, number>();

  const open = (pane: Pane): { chat: PaneChat; ready: Promise<void> } => {
    let chat = chats.get(pane.id);
    if (!chat) {
      const onUsage = d.usage;
      chat = new PaneChat(pane.id, pane, d.redact, d.procRoot ?? '/proc', onUsage ? (u) => onUsage(pane.id, u) : undefined);
      chats.set(pane.id, chat);
      started.set(pane.id, chat.start());
    }
    return { chat, ready: started.get(pane.id) ?? Promise.resolve() };
  };
  const release = (id: string) => {
    const chat = chats.get(id);
    if (!chat || chat.subscribers.size > 0 || (uses.get(id) ?? 0) > 0 || kept.has(id)) return;
    chat.close();
    chats.delete(id);
    started.delete(id);
  };

  /** Panes whose chat stays open for their usage. */
  const kept = new Set<string>();
  const keep = (pane: Pane) => {
    // A crew member's pane on the lead: its own bridge reads its usage, which comes with the pane.
    if (!d.usage || pane.member) return;
    if (readerOf(pane.harness)) {
      if (kept.has(pane.id)) return;
      kept.add(pane.id);
      open(pane);
    } else if (kept.delete(pane.id)) {
      d.usage(pane.id, null);
      release(pane.id);
    }
  };

  const off = d.subscribe((e) => {
    if (e.type === 'pane.updated') chats.get(e.pane.id)?.update(e.pane);
    else if (e.type === 'pane.removed') {
      chats.get(e.id)?.gone();
      kept.delete(e.id);
      release(e.id);
    }
    if (e.type === 'pane.added' || e.type === 'pane.updated') keep(e.pane);
  });
  for (const pane of d.all?.() ?? []) keep(pane);

  return {
    async page(id, before, limit) {
      const pane = d.panes.get(id);
      if (!pane) return null;
      const { chat, ready } = open(pane);
      uses.set(id, (uses.get(id) ?? 0) + 1);
      try {
        await ready;
        return await chat.page(before, limit);
      } finally {
        uses.set(id, (uses.get(id) ?? 1) - 1);
        if (uses.get(id) === 0) uses.delete(id);
        release(id);
      }
    },
    watch(id, send) {
      const pane = d.panes.get(id);
      if (!pane) return null;
      const { chat, ready } = open(pane);
      let on = true;
      const mine = (m: PaneChatMessage) => on && send(m);
      void ready.then(() => (on ? chat.subscribe(mine) : undefined));
      return () => {
        on = false;
        chat.subscribers.delete(mine);
        release(id);
      };
    },
    stop() {
      off();
      kept.clear();
      for (const chat of chats.values()) chat.close();
      chats.clear();
    },
  };
}
