import { parseMarkdown, type Inline } from '../../lib/durable/markdown';

/** Markdown drawn as elements and text nodes only: raw HTML shows as text, links only https. */
export function MarkdownView({ text }: { readonly text: string }) {
  return (
    <div className="md">
      {parseMarkdown(text).map((b, i) => {
        switch (b.kind) {
          case 'heading': {
            const H = b.level === 1 ? 'h3' : b.level === 2 ? 'h4' : 'h5';
            return <H key={i}>{inlines(b.inlines)}</H>;
          }
          case 'paragraph':
            return <p key={i}>{inlines(b.inlines)}</p>;
          case 'list': {
            const L = b.ordered ? 'ol' : 'ul';
            return <L key={i}>{b.items.map((it, j) => <li key={j}>{inlines(it)}</li>)}</L>;
          }
          case 'code':
            return <pre key={i} className="code"><code>{b.text}</code></pre>;
        }
      })}
    </div>
  );
}

export function inlines(xs: readonly Inline[]) {
  return xs.map((x, i) => {
    switch (x.kind) {
      case 'text':
        return <span key={i}>{x.text}</span>;
      case 'strong':
        return <strong key={i}>{x.text}</strong>;
      case 'em':
        return <em key={i}>{x.text}</em>;
      case 'code':
        return <code key={i}>{x.text}</code>;
      case 'link':
        return x.href ? <a key={i} href={x.href} target="_blank" rel="noopener noreferrer">{x.text}</a> : <span key={i}>{x.text}</span>;
    }
  });
}
