import type { DurableItem } from '@collie/protocol';
import { Cursor } from './growing';

/** `thinking`: the agent's thinking, quieter than its answer. */
export function ThinkingItem({ item }: { readonly item: Extract<DurableItem, { kind: 'thinking' }> }) {
  return (
    <div className="chat-item chat-thinking">
      {item.text}
      <Cursor final={item.final} />
    </div>
  );
}
