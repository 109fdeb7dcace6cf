import type { DurableItem } from '@collie/protocol';
import { Cursor } from './growing';

/** `notice`: a short note in the thread ("stopped", "Timed out before an answer: …"). */
export function NoticeItem({ item }: { readonly item: Extract<DurableItem, { kind: 'notice' }> }) {
  return (
    <div className="chat-item chat-notice" role="note">
      {item.text}
      <Cursor final={item.final} />
    </div>
  );
}
