import type { PaneChatMessage, PaneChatPage } from '@collie/protocol';
import { Watches } from '../watches';
import { type PaneChatState, applyChat, prependHistory } from './chat-state';

/** Which panes' chats the page shows, and what it holds of each (as screens are watched). */
export class ChatWatches extends Watches<PaneChatState> {
  /** Null until the bridge's first page arrives. */
  state(id: string): PaneChatState | null {
    return this.value(id);
  }

  deliver(m: PaneChatMessage): void {
    this.update(m.id, (now) => (now === null && !m.reset ? undefined : applyChat(now ?? { source: null, reason: null, items: [], before: null, generation: 0 }, m)));
  }

  /** A History page, fetched while the chat showed `generation`. */
  history(id: string, page: PaneChatPage, generation: number): void {
    this.update(id, (now) => (now ? prependHistory(now, page, generation) : undefined));
  }
}
