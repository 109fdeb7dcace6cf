import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';

/** `code`: a code block, with its language when named. */
export function CodeItem({ item }: { readonly item: Extract<DurableItem, { kind: 'code' }> }) {
  const show = useChatText();
  return (
    <figure className="chat-item chat-code">
      {item.language ? <figcaption>{item.language}</figcaption> : null}
      <pre className="code"><code>{show(item.text)}</code></pre>
    </figure>
  );
}
