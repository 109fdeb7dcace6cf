import type { PaneState } from '@collie/protocol';
import { STATE_WORDS } from '../lib/words';

/** A pane's state in its colour and in words, so colour is never the only signal. */
export function StatePill({ state }: { readonly state: PaneState }) {
  return (
    <span className={`pill pill-${state}`}>
      <span className="pill-dot" aria-hidden="true" />
      {STATE_WORDS[state]}
    </span>
  );
}
