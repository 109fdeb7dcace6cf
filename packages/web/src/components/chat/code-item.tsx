import type { DurableItem } from '@collie/protocol';

/** `code`: a code block, with its language when named. */
export function CodeItem({ item }: { readonly item: Extract<DurableItem, { kind: 'code' }> }) {
  return (
    <figure className="chat-item chat-code">
      {item.language ? <figcaption>{item.language}</figcaption> : null}
      <pre className="code"><code>{item.text}</code></pre>
    </figure>
  );
}
