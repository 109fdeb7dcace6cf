import { parseMarkdown, type Inline } from '../../lib/durable/markdown';
import { useChatText, type RenderText } from './chat-text';

/**
 * Markdown drawn as elements and text nodes only: raw HTML shows as text, links only https.
 * Every text, code spans and blocks too, goes through the chat's `useChatText` (a link's words
 * stay plain: a chip inside a link would be a button inside a link).
 */
export function MarkdownView({ text }: { readonly text: string }) {
  const show = useChatText();
  return (
    <div className="md">
      {parseMarkdown(text).map((b, i) => {
        switch (b.kind) {
          case 'heading': {
            const H = b.level === 1 ? 'h3' : b.level === 2 ? 'h4' : 'h5';
            return <H key={i}>{inlines(b.inlines, show)}</H>;
          }
          case 'paragraph':
            return <p key={i}>{inlines(b.inlines, show)}</p>;
          case 'list': {
            const L = b.ordered ? 'ol' : 'ul';
            return <L key={i}>{b.items.map((it, j) => <li key={j}>{inlines(it, show)}</li>)}</L>;
          }
          case 'code':
            return <pre key={i} className="code"><code>{show(b.text)}</code></pre>;
        }
      })}
    </div>
  );
}

export function inlines(xs: readonly Inline[], show: RenderText = (t) => t) {
  return xs.map((x, i) => {
    switch (x.kind) {
      case 'text':
        return <span key={i}>{show(x.text)}</span>;
      case 'strong':
        return <strong key={i}>{show(x.text)}</strong>;
      case 'em':
        return <em key={i}>{show(x.text)}</em>;
      case 'code':
        return <code key={i}>{show(x.text)}</code>;
      case 'link':
        return x.href ? <a key={i} href={x.href} target="_blank" rel="noopener noreferrer">{x.text}</a> : <span key={i}>{show(x.text)}</span>;
    }
  });
}
