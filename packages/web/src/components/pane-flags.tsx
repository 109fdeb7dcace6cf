import type { Pane } from '@collie/protocol';
import { DIALOG_WORDS } from '../lib/words';

/**
 * The dialog holding a pane, the marker for text the user left typed in its input box, and why
 * an agent's screen could not be read (so an unread screen is never taken for a quiet one).
 */
export function PaneFlags({ pane }: { readonly pane: Pane }) {
  if (pane.dialog === null && pane.draft === null && pane.reason === undefined) return null;
  return (
    <span className="flags">
      {pane.reason === undefined ? null : <span className="flag flag-unread">{pane.reason}</span>}
      {pane.dialog === null ? null : <span className="flag flag-dialog">{DIALOG_WORDS[pane.dialog]}</span>}
      {pane.draft === null ? null : (
        <span className="flag flag-draft" title="Text is typed in the input box">
          Draft
        </span>
      )}
    </span>
  );
}
