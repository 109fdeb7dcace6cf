import type { DurableItem } from '@collie/protocol';

/** `user`: your own line. */
export function UserItem({ item }: { readonly item: Extract<DurableItem, { kind: 'user' }> }) {
  return <div className="chat-item chat-user">{item.text}</div>;
}
