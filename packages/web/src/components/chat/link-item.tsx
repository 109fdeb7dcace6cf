import type { DurableItem } from '@collie/protocol';

/** `link`: its label, else the address; a link only for https:// (the bridge sets `href`). */
export function LinkItem({ item }: { readonly item: Extract<DurableItem, { kind: 'link' }> }) {
  const words = item.label ?? item.url;
  return (
    <div className="chat-item chat-link">
      {item.href ? <a href={item.href} target="_blank" rel="noopener noreferrer">{words}</a> : <span>{words}</span>}
    </div>
  );
}
