import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';

/** `user`: your own line. */
export function UserItem({ item }: { readonly item: Extract<DurableItem, { kind: 'user' }> }) {
  const show = useChatText();
  return <div className="chat-item chat-user">{show(item.text)}</div>;
}
