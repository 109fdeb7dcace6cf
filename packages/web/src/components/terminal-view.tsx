import type { PaneScreen } from '@collie/protocol';
import { Fragment, useLayoutEffect, useMemo, useRef } from 'react';
import { parseScreen } from '../lib/sgr';
import { TerminalLine } from './terminal-line';

/**
 * A live mirror of a pane's screen at the pane's own width: a pane wider than the phone
 * scrolls sideways rather than shrinking its text below reading size.
 */
export function TerminalView({ frame }: { readonly frame: PaneScreen }) {
  const rows = useMemo(() => parseScreen(frame.lines), [frame.lines]);
  const scroller = useRef<HTMLDivElement>(null);
  const placed = useRef(false);
  // Agents draw their input box and dialogs at the foot of the screen: start there, once.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (placed.current || !element) return;
    element.scrollTop = element.scrollHeight;
    placed.current = true;
  }, [rows]);
  const cursor = frame.cursor;
  return (
    <div className="term-scroll" ref={scroller} tabIndex={0} role="region" aria-label="Pane screen">
      <pre className="term" style={{ width: `${Math.max(1, frame.width)}ch` }}>
        {rows.map((spans, y) => (
          <Fragment key={y}>
            {y > 0 ? '\n' : null}
            <TerminalLine spans={spans} cursorX={cursor !== null && cursor.y === y ? cursor.x : null} />
          </Fragment>
        ))}
      </pre>
    </div>
  );
}
