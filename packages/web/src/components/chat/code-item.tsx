import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';

/** `code`: a code block, with its language when named. */
export function CodeItem({ item }: { readonly item: Extract<DurableItem, { kind: 'code' }> }) {
  const show = useChatText();
  return (
    <figure className="chat-item chat-code">
      {item.language ? <figcaption>{item.language}</figcaption> : null}
      {/* Long lines scroll sideways: the block takes focus, so a keyboard can scroll it too. */}
      <pre className="code" tabIndex={0} role="region" aria-label={item.language ? `${item.language} code` : 'Code'}><code>{show(item.text)}</code></pre>
    </figure>
  );
}
