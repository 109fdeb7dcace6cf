import type { PaneScreen } from '@collie/protocol';
import { Fragment, useLayoutEffect, useMemo, useRef } from 'react';
import { useStoredFlag } from '../hooks/use-stored-flag';
import { screenRows } from '../lib/screen-rows';
import { TerminalLine } from './terminal-line';

/**
 * A live mirror of a pane's screen. At the pane's own width a pane wider than the phone
 * scrolls sideways; "Fit to width" shrinks the font until every column fits, remembered per
 * pane. Blank rows under the last text are not drawn, so a short screen shows its top.
 */
export function TerminalView({ paneId, frame }: { readonly paneId: string; readonly frame: PaneScreen }) {
  const cursor = frame.cursor;
  const rows = useMemo(() => screenRows(frame.lines, cursor?.y ?? null), [frame.lines, cursor?.y]);
  const [fit, setFit] = useStoredFlag(`collie.fit.${paneId}`, false);
  const scroller = useRef<HTMLDivElement>(null);
  const placed = useRef(false);
  // Agents draw their input box and dialogs at the foot of the screen: start there, once.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (placed.current || !element) return;
    element.scrollTop = element.scrollHeight;
    placed.current = true;
  }, [rows]);
  const columns = Math.max(1, frame.width);
  return (
    <section className="term-box" aria-label="Pane screen">
      <div className="term-tools">
        <button type="button" className="term-fit-toggle" aria-pressed={fit} onClick={() => setFit(!fit)}>
          Fit to width
        </button>
      </div>
      <div className={`term-scroll${fit ? ' term-scroll-fit' : ''}`} ref={scroller} tabIndex={0} role="region" aria-label="Pane screen, scrollable">
        <pre className={`term${fit ? ' term-fit' : ''}`} style={{ width: `${columns}ch`, ['--cols' as string]: String(columns) }}>
          {rows.map((spans, y) => (
            <Fragment key={y}>
              {y > 0 ? '\n' : null}
              <TerminalLine spans={spans} cursorX={cursor !== null && cursor.y === y ? cursor.x : null} />
            </Fragment>
          ))}
        </pre>
      </div>
    </section>
  );
}
