import type { DurableItem } from '@collie/protocol';
import { Cursor } from './growing';
import { MarkdownView } from './markdown-view';

/** `markdown`: rendered safely (elements and text nodes; raw HTML as text). */
export function MarkdownItem({ item }: { readonly item: Extract<DurableItem, { kind: 'markdown' }> }) {
  return (
    <div className="chat-item chat-markdown">
      <MarkdownView text={item.text} />
      <Cursor final={item.final} />
    </div>
  );
}
