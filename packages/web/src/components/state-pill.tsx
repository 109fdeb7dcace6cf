import type { Harness, PaneState } from '@collie/protocol';
import { stateWord } from '../lib/pane-words';

/** A pane's state in its colour and in words, so colour is never the only signal. */
export function StatePill({ state, harness }: { readonly state: PaneState; readonly harness?: Harness }) {
  return (
    <span className={`pill pill-${state}`}>
      <span className="pill-dot" aria-hidden="true" />
      {stateWord(state, harness)}
    </span>
  );
}
