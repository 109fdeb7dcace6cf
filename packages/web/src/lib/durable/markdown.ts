/**
 * A small markdown reader for chat items: headings, lists, paragraphs, fenced code, and inline
 * emphasis, code and links. It returns plain data the components draw as elements and text
 * nodes; raw HTML is never interpreted (it stays text), and only https:// links become links.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'em'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'link'; text: string; href: string | null };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string; language: string | null };

const HTTPS = /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][^\s"'<>\\`]*)?$/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  // A link's target may hold balanced parentheses (`javascript:alert(1)`, a wiki URL): the whole
  // target is taken, so a refused one leaves its label and nothing of the target behind.
  const re = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|_[^_\s][^_]*_|`[^`]+`|\[[^\]]+\]\((?:[^()\s]|\([^()\s]*\))+\))/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    const t = m[0];
    if (t.startsWith('**')) out.push({ kind: 'strong', text: t.slice(2, -2) });
    else if (t.startsWith('`')) out.push({ kind: 'code', text: t.slice(1, -1) });
    else if (t.startsWith('[')) {
      const mid = t.indexOf('](');
      const href = t.slice(mid + 2, -1);
      out.push({ kind: 'link', text: t.slice(1, mid), href: HTTPS.test(href) ? href : null });
    } else out.push({ kind: 'em', text: t.slice(1, -1) });
    last = m.index + t.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', inlines: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
      blocks.push({ kind: 'code', text: body.join('\n'), language: fence[1] || null });
      continue;
    }
    const h = /^(#{1,3})\s+(.*)$/.exec(line);
    const li = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (h) {
      flush();
      blocks.push({ kind: 'heading', level: h[1]!.length as 1 | 2 | 3, inlines: parseInline(h[2]!) });
    } else if (li) {
      flush();
      const ordered = /\d/.test(li[1]!);
      const prev = blocks.at(-1);
      if (prev?.kind === 'list' && prev.ordered === ordered) prev.items.push(parseInline(li[2]!));
      else blocks.push({ kind: 'list', ordered, items: [parseInline(li[2]!)] });
    } else if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  return blocks;
}

/**
 * The document level of each heading among `blocks`, in order. A reply's headings sit under the
 * page's own (`top` is the level just under the page's h1): the reply's biggest heading becomes
 * `top`, and none goes more than one level deeper than the heading before it, so a reply that
 * opens on `###` still reads as a section of the page and never skips a level (at most 6).
 */
export function headingLevels(blocks: readonly Block[], top = 2): number[] {
  const used = [...new Set(blocks.flatMap((b) => (b.kind === 'heading' ? [b.level] : [])))].sort((a, b) => a - b);
  let prev = top - 1;
  return blocks.flatMap((b) => {
    if (b.kind !== 'heading') return [];
    prev = Math.min(top + used.indexOf(b.level), prev + 1, 6);
    return [prev];
  });
}
