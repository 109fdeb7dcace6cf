import type { DurableItem } from '@collie/protocol';
import { Cursor } from './growing';

/** `reply`: the agent's answer; a cursor while it grows. */
export function ReplyItem({ item }: { readonly item: Extract<DurableItem, { kind: 'reply' }> }) {
  return (
    <div className="chat-item chat-reply">
      {item.text}
      <Cursor final={item.final} />
    </div>
  );
}
