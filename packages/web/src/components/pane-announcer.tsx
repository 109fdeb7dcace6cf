import type { Pane } from '@collie/protocol';
import { useEffect, useRef, useState } from 'react';
import { stateWord } from '../lib/pane-words';
import { DIALOG_WORDS } from '../lib/words';

/**
 * A screen reader hears what changes while the person is on the pane: a new state ("Now
 * Working"), and a new ask with its question. Not what was there on arrival: the title says it.
 */
export function PaneAnnouncer({ pane }: { readonly pane: Pane }) {
  const [words, setWords] = useState('');
  const seen = useRef({ state: pane.state, card: pane.card?.signature ?? null });
  const card = pane.card;
  useEffect(() => {
    const signature = card?.signature ?? null;
    const was = seen.current;
    seen.current = { state: pane.state, card: signature };
    if (signature !== null && signature !== was.card && card) {
      setWords(`New ask, ${DIALOG_WORDS[card.kind]}: ${card.question || card.title}`);
    } else if (pane.state !== was.state) {
      setWords(`Now ${stateWord(pane.state, pane.harness)}`);
    }
  }, [pane.state, pane.harness, card]);
  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true">
      {words}
    </p>
  );
}
