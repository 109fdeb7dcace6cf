import { useEffect, useState } from 'react';
import { FileAnswer } from '@collie/protocol';
import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';
import { filesHref } from '../lib/routes';
import { bridgeJson } from '../lib/workbench/bridge-json';
import { MAX_SHOWN_LINES, crumbs, sizeWords } from '../lib/workbench/file-words';
import { highlight, langOf } from '../lib/workbench/highlight';

/**
 * `#/pane/<id>/file/<path>`: one file of the pane's repository, read-only. Text with line
 * numbers and the diff's syntax colours (as text nodes), an image inline; a binary or huge file
 * is said, not shown. A link that turns out to be a folder opens as one.
 */
export function FilePage({ id, path }: { readonly id: string; readonly path: string }) {
  const { connection } = useClientState();
  const [state, setState] = useState<{ file: FileAnswer | null; error: string | null }>({ file: null, error: null });
  useEffect(() => {
    let live = true;
    void bridgeJson(`/api/panes/${encodeURIComponent(id)}/file?path=${encodeURIComponent(path)}`, FileAnswer).then((r) => {
      if (!live) return;
      if (!r.ok && r.code === 'bad_request' && /is a folder/.test(r.message)) window.location.replace(filesHref(id, path));
      else setState(r.ok ? { file: r.value, error: null } : { file: null, error: r.message });
    });
    return () => {
      live = false;
    };
  }, [id, path]);
  const f = state.file;
  const parent = path.split('/').slice(0, -1).join('/');
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-files">
        <h1 className="changes-title files-title">{path.split('/').at(-1)}</h1>
        <nav className="files-crumbs" aria-label="Folder">
          {crumbs('files', parent).map((c, i) => (
            <span key={c.path}>
              {i > 0 ? ' / ' : ''}
              <a href={filesHref(id, c.path)}>{i === 0 ? 'Files' : c.name}</a>
            </span>
          ))}
          {f ? ` · ${sizeWords(f.size)}` : ''}
        </nav>
        {state.error ? <Notice title="Cannot show this file.">{state.error}</Notice> : null}
        {f === null ? state.error ? null : <Notice title="Reading the file…" /> : <FileBody file={f} />}
      </main>
    </>
  );
}

function FileBody({ file }: { readonly file: FileAnswer }) {
  switch (file.kind) {
    case 'binary':
      return <Notice title="A binary file: not shown.">{sizeWords(file.size)} of bytes that are not text or an image.</Notice>;
    case 'too_large':
      return <Notice title="Too large to show.">{`${sizeWords(file.size)}; the phone shows files up to ${sizeWords(file.limit)}.`}</Notice>;
    case 'image':
      return <img className="files-image" alt={file.path} src={`data:${file.type};base64,${file.base64}`} />;
    case 'text': {
      const lines = file.text.replace(/\n$/, '').split('\n');
      const lang = langOf(file.path);
      return (
        <>
          <div className="files-text" role="region" aria-label="File contents" tabIndex={0}>
            {lines.slice(0, MAX_SHOWN_LINES).map((line, i) => (
              <div className="files-line" key={i}>
                <span className="diff-num">{i + 1}</span>
                <span className="diff-text">{highlight(line, lang).map((t, j) => (t.kind === 'plain' ? t.text : <span key={j} className={`tok-${t.kind}`}>{t.text}</span>))}</span>
              </div>
            ))}
          </div>
          {lines.length > MAX_SHOWN_LINES ? <p className="new-note">{`${(lines.length - MAX_SHOWN_LINES).toLocaleString('en')} more lines are not shown.`}</p> : null}
        </>
      );
    }
  }
}
