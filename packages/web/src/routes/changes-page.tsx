import { useCallback, useEffect, useState } from 'react';
import type { ChangesAnswer, ReviewComment } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { StatusLine } from '../components/status-line';
import { DiffFile } from '../components/workbench/diff-file';
import { useClientState } from '../hooks/use-client';
import { usePaneAction } from '../hooks/use-pane-action';
import { paneHref } from '../lib/routes';
import { fetchChanges, waitForChanges } from '../lib/workbench/changes-api';
import { type Comments, putComment } from '../lib/workbench/review';

/**
 * `#/pane/<id>/changes`: what the agent changed in its repository (working tree against HEAD),
 * a file per fold, paged; tap lines to comment, then "Send to agent" types the comments as one
 * message through the send protocol, its receipt followed live.
 */
export function ChangesPage({ id }: { readonly id: string }) {
  const { connection } = useClientState();
  const [page, setPage] = useState(0);
  const [state, setState] = useState<{ changes: ChangesAnswer | null; error: string | null; loading: boolean }>({ changes: null, error: null, loading: true });
  const [comments, setComments] = useState<Comments>(new Map());
  const action = usePaneAction(id);

  const load = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    void fetchChanges(id, page).then((r) => setState(r.ok ? { changes: r.changes, error: null, loading: false } : { changes: null, error: r.message, loading: false }));
  }, [id, page]);
  useEffect(load, [load]);

  // Live: the bridge watches the repository and answers a wait when a file changes; then the
  // page reads the diff again (comments stay). One wait out at a time; none after a failure.
  const shown = state.changes;
  useEffect(() => {
    if (!shown) return;
    const stop = new AbortController();
    const next = async (): Promise<void> => {
      const changed = await waitForChanges(id, stop.signal);
      if (stop.signal.aborted || changed === null) return;
      if (changed) load();
      else await next();
    };
    void next();
    return () => stop.abort();
  }, [id, shown, load]);

  // Sent and typed: the comments went to the agent; they leave the page.
  const receipt = action.receipt;
  useEffect(() => {
    if (receipt?.final && (receipt.state === 'typed' || receipt.state === 'not_submitted')) setComments(new Map());
  }, [receipt]);

  const onComment = useCallback((key: string, comment: ReviewComment | null) => setComments((c) => putComment(c, key, comment)), []);
  const c = state.changes;
  const count = comments.size;
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-changes">
        <h1 className="changes-title">Changes</h1>
        <p className="changes-facts">
          <a href={paneHref(id)}>Back to the pane</a>
          {c ? ` · ${c.root.split('/').at(-1) ?? c.root}${c.branch ? ` on ${c.branch}` : ''} · ${c.paths.length}\u00a0file${c.paths.length === 1 ? '' : 's'}${c.pages > 1 ? ` · page\u00a0${c.page + 1}\u00a0of\u00a0${c.pages}` : ''}` : ''}
          {' · '}
          <button type="button" className="link-button" onClick={load} disabled={state.loading}>
            Refresh
          </button>
        </p>
        {state.error ? <Notice title="No changes to show.">{state.error}</Notice> : null}
        {c && c.paths.length === 0 ? <Notice title="Nothing changed.">The working tree matches the last commit.</Notice> : null}
        {c ? c.files.map((f) => <DiffFile key={`${page}\n${f.path}`} file={f} comments={comments} onComment={onComment} />) : state.loading ? <Notice title="Reading the changes…" /> : null}
        {c && c.pages > 1 ? (
          <nav className="changes-pages" aria-label="Pages of the diff">
            <button type="button" className="composer-keys" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span>
              Page {c.page + 1} of {c.pages}
            </span>
            <button type="button" className="composer-keys" disabled={page >= c.pages - 1} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        ) : null}
        <footer className="dock">
          <StatusLine action={action} className="composer-status" />
          <div className="composer-row">
            <p className="changes-count">{count === 0 ? 'Tap a line to comment.' : `${count} comment${count === 1 ? '' : 's'}`}</p>
            <button type="button" className="composer-send" disabled={count === 0 || action.busy} onClick={() => action.run({ kind: 'review', comments: [...comments.values()] })}>
              Send to agent
            </button>
          </div>
        </footer>
      </main>
    </>
  );
}
