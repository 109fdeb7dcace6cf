import { useEffect, useState } from 'react';
import { LaunchersFile, NewOptions, NewPaneAnswer } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { FolderSessions } from '../components/folder-sessions';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { newRequestId } from '../lib/request-ids';
import { paneHref, worktreesHref } from '../lib/routes';
import { bridgeJson } from '../lib/workbench/bridge-json';
import { type NewForm, chooseLauncher, initialForm, launcherWords, newRequest, worktreePreview } from '../lib/workbench/new-form';

const SOURCE_WORDS = { saved: 'saved launcher', agent: 'agent', shell: 'shell' } as const;

/**
 * `#/new`: start an agent (or a shell) in a new tmux window: what runs, in which folder,
 * optionally in a new git worktree on a new branch, in which session, and a first message the
 * bridge sends through the send protocol once the agent is idle. Then the phone goes to the pane.
 */
export function NewPage() {
  const { model, connection } = useClientState();
  const [options, setOptions] = useState<{ o: NewOptions | null; error: string | null }>({ o: null, error: null });
  const [form, setForm] = useState<NewForm | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);

  useEffect(() => {
    void bridgeJson('/api/new', NewOptions).then((r) => {
      setOptions(r.ok ? { o: r.value, error: null } : { o: null, error: r.message });
      if (r.ok) setForm(initialForm(r.value));
    });
  }, []);

  // The bridge answered with the pane's id: go there once the model has it (a moment later, on the stream).
  const arrived = started !== null && model?.panes.has(started) === true;
  useEffect(() => {
    if (started && arrived) window.location.hash = paneHref(started);
  }, [started, arrived]);

  const o = options.o;
  const set = (patch: Partial<NewForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  const start = async () => {
    if (!o || !form) return;
    const req = newRequest(form, o, newRequestId());
    if (!req.ok) return setProblem(req.problem);
    setBusy(true);
    setProblem(null);
    // Saved first: what starts is the saved launcher, listed first from now on.
    if (req.save) {
      const saved = await bridgeJson('/api/launchers', LaunchersFile, req.save);
      if (!saved.ok) {
        setBusy(false);
        return setProblem(`Not saved: ${saved.message}`);
      }
    }
    const r = await bridgeJson('/api/panes/new', NewPaneAnswer, req.body);
    setBusy(false);
    if (r.ok) setStarted(r.value.pane);
    else setProblem(r.message);
  };
  const repo = o && form ? (o.folders.find((f) => f.path === form.folder)?.repo ?? false) : false;
  const servers = o ? [...new Set(o.sessions.map((s) => s.server))] : [];
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-new">
        <h1 className="changes-title">New pane</h1>
        {options.error ? <Notice title="The bridge cannot offer new panes.">{options.error}</Notice> : null}
        {!o || !form ? (
          options.error ? null : <Notice title="Reading folders and agents…" />
        ) : (
          <form
            className="new-form"
            onSubmit={(e) => {
              e.preventDefault();
              void start();
            }}
          >
            <fieldset className="new-set">
              <legend className="new-legend">Run</legend>
              <ul className="rows new-choices">
                {o.launchers.map((l) => (
                  <li key={l.name}>
                    <label className="new-choice">
                      <input type="radio" name="launcher" value={l.name} checked={form.launcher === l.name} onChange={() => setForm((f) => (f ? chooseLauncher(f, o, l.name) : f))} />
                      <span className="new-choice-main">
                        <span className="new-choice-name">{l.name}</span>
                        <span className="new-choice-meta">
                          {SOURCE_WORDS[l.source]}
                          {l.version ? ` · ${l.version}` : ''}
                          {l.source === 'saved' ? ` · ${launcherWords(l.command)}` : ''}
                          {l.folder ? ` · in ${l.folder.split('/').at(-1) || l.folder}` : ''}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
              <label className="workbench-label" htmlFor="new-flags">
                Flags
              </label>
              <input id="new-flags" className="composer-box" value={form.flags} autoCapitalize="off" autoCorrect="off" spellCheck={false} placeholder="Optional: --model haiku" onChange={(e) => set({ flags: e.currentTarget.value })} />
              <p className="new-note">Words separated by spaces, after the program's own.</p>
            </fieldset>
            <fieldset className="new-set">
              <legend className="new-legend">In the folder</legend>
              {o.folders.length === 0 ? (
                <p className="new-note">No folders to offer: no pane runs in one, and COLLIE_ROOTS names none.</p>
              ) : (
                <ul className="rows new-choices">
                  {o.folders.map((f) => (
                    <li key={f.path}>
                      <label className="new-choice">
                        <input type="radio" name="folder" value={f.path} checked={form.folder === f.path} onChange={() => set({ folder: f.path, worktree: f.repo && form.worktree })} />
                        <span className="new-choice-main">
                          <span className="new-choice-name">{f.path.split('/').at(-1) || f.path}</span>
                          <span className="new-choice-meta">
                            {f.path}
                            {f.recent ? ' · a pane runs here' : ''}
                            {f.repo ? ' · git' : ''}
                          </span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </fieldset>
            {form.folder ? <FolderSessions folder={form.folder} /> : null}
            <fieldset className="new-set">
              <legend className="new-legend">Worktree</legend>
              <label className="new-check">
                <input type="checkbox" checked={form.worktree} disabled={!repo} onChange={(e) => set({ worktree: e.currentTarget.checked })} />
                <span>{repo ? 'In a new git worktree, on a new branch' : 'A worktree needs a git repository folder'}</span>
              </label>
              {form.worktree ? (
                <>
                  <label className="workbench-label" htmlFor="new-branch">
                    Branch
                  </label>
                  <input id="new-branch" className="composer-box" value={form.branch} maxLength={100} autoCapitalize="off" autoCorrect="off" spellCheck={false} placeholder="fix/login" onChange={(e) => set({ branch: e.currentTarget.value })} />
                  <p className="new-note">Made at {worktreePreview(form.folder, form.branch, o.worktreeDir)}</p>
                </>
              ) : null}
            </fieldset>
            <fieldset className="new-set">
              <legend className="new-legend">Session</legend>
              <select className="composer-box new-select" aria-label="tmux session" value={form.where} onChange={(e) => set({ where: e.currentTarget.value })}>
                {servers.map((s) => (
                  <option key={`${s}\n`} value={`${s}\n`}>
                    A new session{servers.length > 1 ? ` on ${s}` : ''}
                  </option>
                ))}
                {o.sessions.map((s) => (
                  <option key={`${s.server}\n${s.session}`} value={`${s.server}\n${s.session}`}>
                    {s.session}
                    {servers.length > 1 ? ` on ${s.server}` : ''}
                  </option>
                ))}
              </select>
            </fieldset>
            <fieldset className="new-set">
              <legend className="new-legend">First message</legend>
              <textarea className="composer-box" rows={3} aria-label="First message" placeholder="Optional: sent once the agent is ready" value={form.message} onChange={(e) => set({ message: e.currentTarget.value })} />
            </fieldset>
            <fieldset className="new-set">
              <legend className="new-legend">Launcher</legend>
              <label className="new-check">
                <input type="checkbox" checked={form.save} onChange={(e) => set({ save: e.currentTarget.checked })} />
                <span>Save as a launcher: what runs, its flags and the folder</span>
              </label>
              {form.save ? (
                <>
                  <label className="workbench-label" htmlFor="new-save-name">
                    Launcher name
                  </label>
                  <input id="new-save-name" className="composer-box" value={form.saveName} maxLength={40} autoCapitalize="off" autoCorrect="off" spellCheck={false} placeholder="shop claude" onChange={(e) => set({ saveName: e.currentTarget.value })} />
                  <p className="new-note">Listed first on this page from now on (launchers.json).</p>
                </>
              ) : null}
            </fieldset>
            {problem ? (
              <p className="workbench-error" role="alert">
                {problem}
              </p>
            ) : null}
            {started && !arrived ? <p className="new-note" role="status">Started; opening the pane…</p> : null}
            <div className="diff-comment-actions">
              <a className="workbench-link" href={worktreesHref()}>
                Worktrees
              </a>
              <button type="submit" className="composer-send" disabled={busy || started !== null}>
                Start
              </button>
            </div>
          </form>
        )}
      </main>
    </>
  );
}
