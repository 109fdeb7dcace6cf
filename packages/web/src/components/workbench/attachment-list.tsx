import type { Attachment } from '../../lib/workbench/attachments';
import { sizeWords, uploadUrl } from '../../lib/workbench/uploads-api';

const STATE_WORDS: Record<Attachment['state'], string> = { uploading: 'uploading…', ready: 'ready', failed: 'not attached' };

/** The files going with the next message: a picture's thumbnail (read back from the bridge once stored), name, size, where the upload stands, and Remove. */
export function AttachmentList({ list, onRemove }: { readonly list: readonly Attachment[]; readonly onRemove: (key: string) => void }) {
  if (list.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attached files">
      {list.map((a) => (
        <li key={a.key} className={`attachment attachment-${a.state}`}>
          {a.upload?.type.startsWith('image/') ? <img className="attachment-thumb" src={uploadUrl(a.upload.id)} alt="" width={40} height={40} /> : null}
          <span className="attachment-name">{a.name}</span>
          <span className="attachment-meta">
            {sizeWords(a.size)} · {STATE_WORDS[a.state]}
          </span>
          {a.message ? <span className="attachment-error" role="alert">{a.message}</span> : null}
          <button type="button" className="attachment-remove" aria-label={`Remove ${a.name}`} onClick={() => onRemove(a.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
