import { useEffect, useState } from 'react';
import type { QuickReply } from '@collie/protocol';
import { settingsHref } from '../../lib/routes';
import { fetchQuickReplies } from '../../lib/workbench/quick-replies-api';

/** Saved one-tap texts (`quick-replies.json`): a tap sends one through the send protocol, as the composer would. */
export function QuickReplyChips({ onPick, disabled }: { readonly onPick: (text: string) => void; readonly disabled: boolean }) {
  const [replies, setReplies] = useState<readonly QuickReply[]>([]);
  useEffect(() => {
    let live = true;
    void fetchQuickReplies().then((r) => live && setReplies(r));
    return () => {
      live = false;
    };
  }, []);
  if (replies.length === 0) return null;
  return (
    <div className="quick-replies" role="group" aria-label="Quick replies">
      {replies.map((r) => (
        <button key={r.label} type="button" className="quick-reply" title={r.text} disabled={disabled} onClick={() => onPick(r.text)}>
          {r.label}
        </button>
      ))}
      <a className="quick-reply quick-reply-edit" href={settingsHref()} aria-label="Edit quick replies">
        Edit…
      </a>
    </div>
  );
}
