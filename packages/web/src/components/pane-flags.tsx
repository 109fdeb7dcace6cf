import type { Pane } from '@collie/protocol';
import { DIALOG_WORDS } from '../lib/words';

/** The dialog holding a pane and the marker for text the user left typed in its input box. */
export function PaneFlags({ pane }: { readonly pane: Pane }) {
  if (pane.dialog === null && pane.draft === null) return null;
  return (
    <span className="flags">
      {pane.dialog === null ? null : <span className="flag flag-dialog">{DIALOG_WORDS[pane.dialog]}</span>}
      {pane.draft === null ? null : (
        <span className="flag flag-draft" title="Text is typed in the input box">
          Draft
        </span>
      )}
    </span>
  );
}
