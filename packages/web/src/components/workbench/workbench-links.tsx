import { useState } from 'react';
import { type Pane, WindowName } from '@collie/protocol';
import { changesHref, dashboardHref, filesHref } from '../../lib/routes';
import { MID_TURN_WARNING, closeQuestion, postManage } from '../../lib/workbench/pane-manage';
import { useMaySend } from '../../hooks/use-client';

type Open = { readonly kind: 'none' } | { readonly kind: 'rename'; readonly name: string } | { readonly kind: 'close'; readonly midTurn: boolean };

/**
 * The pane's work: its changes, and managing it (name it: the label every page shows; close it). Closing asks
 * first, naming what runs there; an agent mid-turn needs a second tap.
 */
export function WorkbenchLinks({ paneId, pane }: { readonly paneId: string; readonly pane: Pane }) {
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  // A watch-only device reads the changes and files; renaming and closing change the machine.
  const maySend = useMaySend();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (verb: 'rename' | 'close', body: unknown, after: () => void) => {
    setBusy(true);
    setError(null);
    const r = await postManage(paneId, verb, body);
    setBusy(false);
    if (r.ok) after();
    // The bridge saw the agent start working since the first tap: ask the second question.
    else if (r.code === 'conflict' && verb === 'close') setOpen({ kind: 'close', midTurn: true });
    else setError(r.message);
  };
  const nameCheck = open.kind === 'rename' ? WindowName.safeParse(open.name) : null;
  return (
    <section className="workbench" aria-label="Work on this pane">
      <nav className="workbench-links">
        <a className="workbench-link" href={changesHref(paneId)}>
          Changes
        </a>
        <a className="workbench-link" href={filesHref(paneId)}>
          Files
        </a>
        {maySend ? (
          <>
            <button type="button" className="workbench-link" onClick={() => setOpen(open.kind === 'rename' ? { kind: 'none' } : { kind: 'rename', name: pane.label })}>
              Rename
            </button>
            <button type="button" className="workbench-link workbench-danger" onClick={() => setOpen(open.kind === 'close' ? { kind: 'none' } : { kind: 'close', midTurn: false })}>
              Close
            </button>
          </>
        ) : null}
      </nav>
      {open.kind === 'rename' ? (
        <div className="workbench-panel">
          <label className="workbench-label" htmlFor="pane-name">
            Pane name
          </label>
          <input id="pane-name" className="composer-box" value={open.name} maxLength={60} onChange={(e) => setOpen({ kind: 'rename', name: e.currentTarget.value })} />
          {nameCheck && !nameCheck.success && open.name !== '' ? <p className="workbench-error">1 to 60 printable characters, not starting with - and without spaces at its ends.</p> : null}
          <div className="diff-comment-actions">
            <button type="button" className="composer-keys" onClick={() => setOpen({ kind: 'none' })}>
              Cancel
            </button>
            {/* No name: the automatic label (`<repo>#<branch>`, else the title) comes back. */}
            <button type="button" className="composer-keys" disabled={busy} onClick={() => void run('rename', { name: null }, () => setOpen({ kind: 'none' }))}>
              Automatic name
            </button>
            <button type="button" className="composer-send" disabled={busy || !nameCheck?.success} onClick={() => void run('rename', { name: open.name }, () => setOpen({ kind: 'none' }))}>
              Save name
            </button>
          </div>
        </div>
      ) : null}
      {open.kind === 'close' ? (
        <div className="workbench-panel workbench-panel-danger" role="alertdialog" aria-label="Close the pane">
          <p className="workbench-question">{closeQuestion(pane)}</p>
          {open.midTurn || pane.state === 'working' ? <p className="workbench-warning">{MID_TURN_WARNING}</p> : null}
          <div className="diff-comment-actions">
            <button type="button" className="composer-keys" onClick={() => setOpen({ kind: 'none' })}>
              Cancel
            </button>
            {pane.state === 'working' && !open.midTurn ? (
              <button type="button" className="composer-send workbench-danger-button" onClick={() => setOpen({ kind: 'close', midTurn: true })}>
                Close
              </button>
            ) : (
              <button type="button" className="composer-send workbench-danger-button" disabled={busy} onClick={() => void run('close', { mid_turn: open.midTurn }, () => (window.location.hash = dashboardHref()))}>
                {open.midTurn ? 'Close anyway' : 'Close pane'}
              </button>
            )}
          </div>
        </div>
      ) : null}
      {error ? <p className="workbench-error" role="alert">{error}</p> : null}
    </section>
  );
}
