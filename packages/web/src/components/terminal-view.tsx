import type { PaneScreen } from '@collie/protocol';
import { Fragment, useLayoutEffect, useMemo, useRef } from 'react';
import { useStoredFlag } from '../hooks/use-stored-flag';
import { screenRows } from '../lib/screen-rows';
import { idsIn } from '../lib/walky/ids';
import { TerminalLine } from './terminal-line';

/**
 * A live mirror of a pane's screen. At the pane's own width a pane wider than the phone
 * scrolls sideways; "Fit to width" shrinks the font until every column fits, remembered per
 * pane. Blank rows under the last text are not drawn, so a short screen shows its top.
 * `logged`: the walky message ids the log holds; a row that prints one (a message's header,
 * or an id in an agent's output) is marked, every such row the same way.
 */
export function TerminalView({ paneId, frame, logged = null }: { readonly paneId: string; readonly frame: PaneScreen; readonly logged?: ReadonlySet<string> | null }) {
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
  const marked = useMemo(
    () => rows.map((spans) => (logged && logged.size > 0 ? (idsIn(spans.map((sp) => sp.text).join('')).find((id) => logged.has(id)) ?? null) : null)),
    [rows, logged],
  );
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
              {marked[y] ? (
                <span className="term-wk-row" data-message={marked[y]}>
                  <TerminalLine spans={spans} cursorX={cursor !== null && cursor.y === y ? cursor.x : null} />
                </span>
              ) : (
                <TerminalLine spans={spans} cursorX={cursor !== null && cursor.y === y ? cursor.x : null} />
              )}
            </Fragment>
          ))}
        </pre>
      </div>
    </section>
  );
}
