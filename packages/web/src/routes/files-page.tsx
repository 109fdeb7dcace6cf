import { useEffect, useState } from 'react';
import { FilesAnswer } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { fileHref, filesHref, paneHref } from '../lib/routes';
import { bridgeJson } from '../lib/workbench/bridge-json';
import { crumbs, sizeWords } from '../lib/workbench/file-words';

/**
 * `#/pane/<id>/files/<path>`: one folder of the pane's repository (or its folder outside one),
 * read-only: folders first, git-ignored entries hidden unless asked. With no path it opens
 * where the pane is (the bridge's `start`).
 */
export function FilesPage({ id, path: asked }: { readonly id: string; readonly path: string | null }) {
  const path = asked ?? '';
  const { connection } = useClientState();
  const [ignored, setIgnored] = useState(false);
  const [state, setState] = useState<{ answer: FilesAnswer | null; error: string | null }>({ answer: null, error: null });
  useEffect(() => {
    let live = true;
    void bridgeJson(`/api/panes/${encodeURIComponent(id)}/files?path=${encodeURIComponent(path)}${ignored ? '&ignored=1' : ''}`, FilesAnswer).then((r) => {
      if (!live) return;
      // The first visit (no path) opens where the pane runs, when that is below the root.
      if (r.ok && asked === null && r.value.start !== '') window.location.replace(filesHref(id, r.value.start));
      else setState(r.ok ? { answer: r.value, error: null } : { answer: null, error: r.message });
    });
    return () => {
      live = false;
    };
  }, [id, path, asked, ignored]);
  const a = state.answer;
  const here = a?.path ?? path;
  const join = (name: string) => (here ? `${here}/${name}` : name);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-files">
        <h1 className="changes-title">Files</h1>
        <nav className="files-crumbs" aria-label="Folder">
          <a href={paneHref(id)}>Pane</a>
          {a ? crumbs(a.root, here).map((c) => (
            <span key={c.path}>
              {' / '}
              {c.path === here ? <span aria-current="page">{c.name}</span> : <a href={filesHref(id, c.path)}>{c.name}</a>}
            </span>
          )) : null}
        </nav>
        {state.error ? <Notice title="Cannot show this folder.">{state.error}</Notice> : null}
        {a ? (
          <>
            {a.entries.length === 0 ? <Notice title="An empty folder." /> : null}
            <ul className="rows files-list">
              {here !== '' ? (
                <li>
                  <a className="files-row" href={filesHref(id, here.split('/').slice(0, -1).join('/'))}>
                    <span className="files-kind" aria-hidden="true">↑</span>
                    <span className="files-name">..</span>
                  </a>
                </li>
              ) : null}
              {a.entries.map((e) => (
                <li key={e.name}>
                  <a className={`files-row files-${e.kind}${e.ignored ? ' files-ignored' : ''}`} href={e.kind === 'dir' ? filesHref(id, join(e.name)) : fileHref(id, join(e.name))}>
                    <span className="files-kind" aria-hidden="true">
                      {e.kind === 'dir' ? '▸' : e.kind === 'link' ? '↪' : '·'}
                    </span>
                    <span className="files-name">
                      {e.name}
                      {e.kind === 'dir' ? '/' : ''}
                    </span>
                    <span className="files-meta">{e.kind === 'file' && e.size !== null ? sizeWords(e.size) : e.kind === 'link' ? 'link' : e.ignored ? 'ignored' : ''}</span>
                  </a>
                </li>
              ))}
            </ul>
            {a.truncated ? <p className="new-note">Only the first entries of this folder are listed.</p> : null}
            <label className="new-check">
              <input type="checkbox" checked={ignored} onChange={(e) => setIgnored(e.currentTarget.checked)} />
              <span>{ignored ? 'Showing git-ignored files' : `Show git-ignored files${a.hidden > 0 ? ` (${a.hidden} hidden)` : ''}`}</span>
            </label>
          </>
        ) : state.error ? null : (
          <Notice title="Reading the folder…" />
        )}
      </main>
    </>
  );
}
