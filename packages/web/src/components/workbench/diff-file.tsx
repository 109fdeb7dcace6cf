import { useState } from 'react';
import type { ChangedFile, DiffLine, ReviewComment } from '@collie/protocol';
import { type Comments, commentOn, lineKey } from '../../lib/workbench/review';
import { highlight, langOf } from '../../lib/workbench/highlight';

const STATUS_WORDS: Record<ChangedFile['status'], string> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R', untracked: '?' };
const MARK: Record<DiffLine['kind'], string> = { add: '+', del: '−', ctx: ' ' };

interface Props {
  readonly file: ChangedFile;
  readonly comments: Comments;
  readonly onComment: (key: string, comment: ReviewComment | null) => void;
}

/**
 * One changed file, folded: its status, path and counts; opened, its hunks. A tap on a line
 * opens a comment box under it; a line with a comment shows it. Text is rendered as text nodes.
 */
export function DiffFile({ file, comments, onComment }: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const count = [...comments.values()].filter((c) => c.path === file.path).length;
  const lang = langOf(file.path);
  return (
    <details className={`diff-file diff-${file.status}`}>
      <summary className="diff-summary">
        <span className="diff-status" title={file.status}>
          {STATUS_WORDS[file.status]}
        </span>
        <span className="diff-path">
          {file.oldPath ? `${file.oldPath} → ` : ''}
          {file.path}
        </span>
        <span className="diff-counts">
          {file.binary ? 'binary' : file.status === 'untracked' ? (file.additions > 0 ? `+${file.additions} · new, not in git` : 'new, not in git') : `+${file.additions} −${file.deletions}`}
          {stagedWords(file)}
          {count > 0 ? ` · ${count} comment${count === 1 ? '' : 's'}` : ''}
        </span>
      </summary>
      {file.binary ? <p className="diff-note">A binary file: not shown.</p> : null}
      {file.note ? <p className="diff-note">{file.note}</p> : null}
      {file.hunks.map((h, i) => (
        <div className="diff-hunk" key={i}>
          <p className="diff-hunk-header">{h.header}</p>
          {h.lines.map((line) => {
            const key = lineKey(file.path, line);
            const comment = comments.get(key);
            return (
              <div key={key + line.kind}>
                <button type="button" className={`diff-line diff-line-${line.kind}${comment ? ' diff-line-commented' : ''}`} onClick={() => setEditing(editing === key ? null : key)} aria-label={`Comment on line ${line.new ?? line.old ?? ''}`}>
                  <span className="diff-num">{line.old ?? ''}</span>
                  <span className="diff-num">{line.new ?? ''}</span>
                  <span className="diff-mark">{MARK[line.kind]}</span>
                  <span className="diff-text">
                    {highlight(line.text, lang).map((t, i) => (t.kind === 'plain' ? t.text : <span key={i} className={`tok-${t.kind}`}>{t.text}</span>))}
                  </span>
                </button>
                {editing === key ? (
                  <CommentBox
                    initial={comment?.text ?? ''}
                    onSave={(text) => {
                      onComment(key, text.trim() === '' ? null : commentOn(file.path, line, text.trim()));
                      setEditing(null);
                    }}
                    onCancel={() => setEditing(null)}
                  />
                ) : comment ? (
                  <p className="diff-comment">{comment.text}</p>
                ) : null}
              </div>
            );
          })}
        </div>
      ))}
      {file.cut > 0 ? <p className="diff-note">{file.cut.toLocaleString('en')} more lines of this file are not shown (a huge diff).</p> : null}
    </details>
  );
}

function CommentBox({ initial, onSave, onCancel }: { readonly initial: string; readonly onSave: (text: string) => void; readonly onCancel: () => void }) {
  const [text, setText] = useState(initial);
  return (
    <div className="diff-comment-box">
      <textarea className="composer-box" rows={2} value={text} autoFocus aria-label="Comment on this line" placeholder="Comment for the agent" onChange={(e) => setText(e.currentTarget.value)} />
      <div className="diff-comment-actions">
        <button type="button" className="composer-keys" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="composer-send" onClick={() => onSave(text)}>
          {text.trim() === '' && initial !== '' ? 'Remove' : 'Save comment'}
        </button>
      </div>
    </div>
  );
}

/** Whether git's index holds the change: said when it does (a change only in the working tree, the usual case, says nothing). */
function stagedWords(file: { readonly status: string; readonly staged: boolean; readonly unstaged: boolean }): string {
  if (file.status === 'untracked' || !file.staged) return '';
  return file.unstaged ? ' · partly staged' : ' · staged';
}
