import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';
import { Cursor } from './growing';

/** `thinking`: the agent's thinking, quieter than its answer. */
export function ThinkingItem({ item }: { readonly item: Extract<DurableItem, { kind: 'thinking' }> }) {
  const show = useChatText();
  return (
    <div className="chat-item chat-thinking">
      {show(item.text)}
      <Cursor final={item.final} />
    </div>
  );
}
