import { headingLevels, parseMarkdown, type Inline } from '../../lib/durable/markdown';
import { useChatText, type RenderText } from './chat-text';

/**
 * Markdown drawn as elements and text nodes only: raw HTML shows as text, links only https.
 * Every text, code spans and blocks too, goes through the chat's `useChatText` (a link's words
 * stay plain: a chip inside a link would be a button inside a link). Headings take their place
 * in the page's outline under its h1 (`headingLevels`), drawn at the size the reply gave them.
 */
export function MarkdownView({ text }: { readonly text: string }) {
  const show = useChatText();
  const blocks = parseMarkdown(text);
  const levels = headingLevels(blocks);
  let heading = 0;
  return (
    <div className="md">
      {blocks.map((b, i) => {
        switch (b.kind) {
          case 'heading': {
            const H = `h${levels[heading++]!}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
            return (
              <H key={i} className={`md-h md-h${b.level}`}>
                {inlines(b.inlines, show)}
              </H>
            );
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
