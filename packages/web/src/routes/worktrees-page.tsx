import { useCallback, useEffect, useState } from 'react';
import { RemoveWorktreeAnswer, type Worktree, WorktreesAnswer } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { newHref } from '../lib/routes';
import { bridgeJson } from '../lib/workbench/bridge-json';
import { worktreeState } from '../lib/workbench/worktree-words';

type Asking = { readonly path: string; readonly warning: string | null };

/**
 * `#/worktrees`: the linked worktrees of the repositories New offers, with their branch's state;
 * one whose pane is gone can be removed (folder and branch). Remove asks first, naming the
 * worktree and its state; when the bridge says it would lose commits or files, a second tap
 * (Remove anyway) confirms. Never silently.
 */
export function WorktreesPage() {
  const { connection } = useClientState();
  const [list, setList] = useState<{ worktrees: Worktree[] | null; error: string | null }>({ worktrees: null, error: null });
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const load = useCallback(() => {
    void bridgeJson('/api/worktrees', WorktreesAnswer).then((r) => setList(r.ok ? { worktrees: r.value.worktrees, error: null } : { worktrees: null, error: r.message }));
  }, []);
  useEffect(load, [load]);

  const remove = async (w: Worktree, confirm: boolean) => {
    setBusy(true);
    const r = await bridgeJson('/api/worktrees/remove', RemoveWorktreeAnswer, { path: w.path, confirm });
    setBusy(false);
    if (r.ok) {
      setAsking(null);
      setSaid(`Removed ${r.value.removed}${r.value.branch ? ` and the branch ${r.value.branch}` : ''}.`);
      load();
    } else if (r.code === 'conflict' && !confirm && w.panes.length === 0) setAsking({ path: w.path, warning: r.message });
    else {
      setAsking(null);
      setSaid(r.message);
    }
  };
  const ws = list.worktrees;
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-new">
        <h1 className="changes-title">Worktrees</h1>
        <p className="changes-facts">
          <a href={newHref()}>New pane</a> · the worktrees of the repositories New offers
        </p>
        {list.error ? <Notice title="No worktrees to show.">{list.error}</Notice> : null}
        {said ? (
          <p className="new-note" role="status">
            {said}
          </p>
        ) : null}
        {ws === null ? (
          list.error ? null : <Notice title="Reading the worktrees…" />
        ) : ws.length === 0 ? (
          <Notice title="No worktrees.">New makes one when you ask for a new branch.</Notice>
        ) : (
          <ul className="rows new-choices">
            {ws.map((w) => (
              <li key={w.path} className="worktree">
                <span className="new-choice-main">
                  <span className="new-choice-name">{w.branch ?? w.path.split('/').at(-1)}</span>
                  <span className="new-choice-meta">{w.path}</span>
                  <span className={`worktree-state${w.unpushed > 0 || w.dirty > 0 ? ' worktree-loses' : ''}`}>{worktreeState(w)}</span>
                </span>
                {w.panes.length > 0 ? null : asking?.path === w.path ? (
                  <div className="workbench-panel workbench-panel-danger" role="alertdialog" aria-label="Remove the worktree">
                    <p className="workbench-question">
                      Remove the folder {w.path}
                      {w.branch ? ` and the branch ${w.branch}` : ''}?
                    </p>
                    {asking.warning ? <p className="workbench-warning">{asking.warning}</p> : null}
                    <div className="diff-comment-actions">
                      <button type="button" className="composer-keys" onClick={() => setAsking(null)}>
                        Cancel
                      </button>
                      <button type="button" className="composer-send workbench-danger-button" disabled={busy} onClick={() => void remove(w, asking.warning !== null)}>
                        {asking.warning ? 'Remove anyway' : 'Remove'}
                      </button>
                    </div>
                  </div>
                ) : (
                  <button type="button" className="workbench-link workbench-danger" onClick={() => {
                      setAsking({ path: w.path, warning: null });
                      setSaid(null);
                    }}>
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
