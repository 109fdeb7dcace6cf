import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';
import { Cursor } from './growing';

/** `reply`: the agent's answer; a cursor while it grows. */
export function ReplyItem({ item }: { readonly item: Extract<DurableItem, { kind: 'reply' }> }) {
  const show = useChatText();
  return (
    <div className="chat-item chat-reply">
      {show(item.text)}
      <Cursor final={item.final} />
    </div>
  );
}
