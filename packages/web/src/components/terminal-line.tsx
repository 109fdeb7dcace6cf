import { cellLook } from '../lib/cell-look';
import { splitAtCursor } from '../lib/cursor';
import type { Span } from '../lib/sgr';

/** One screen row: styled runs as text nodes (never HTML), with the cursor cell when it is on this row. */
export function TerminalLine({ spans, cursorX }: { readonly spans: readonly Span[]; readonly cursorX: number | null }) {
  if (cursorX === null) return <>{spans.map((span, i) => <Run key={i} span={span} />)}</>;
  const { before, at, after } = splitAtCursor(spans, cursorX);
  return (
    <>
      {before.map((span, i) => <Run key={`b${i}`} span={span} />)}
      <Run span={at} cursor />
      {after.map((span, i) => <Run key={`a${i}`} span={span} />)}
    </>
  );
}

function Run({ span, cursor = false }: { readonly span: Span; readonly cursor?: boolean }) {
  const look = cellLook(span.style);
  const className = cursor ? `${look.className} term-cursor`.trim() : look.className;
  const colored = look.color !== undefined || look.backgroundColor !== undefined;
  if (className === '' && !colored) return <>{span.text}</>;
  return (
    <span
      className={className === '' ? undefined : className}
      style={colored ? { color: look.color, backgroundColor: look.backgroundColor } : undefined}
    >
      {span.text}
    </span>
  );
}
