import { answerWords, type CardOption, type DialogCard as Card } from '@collie/protocol';
import { useEffect, useState } from 'react';
import { usePaneAction } from '../hooks/use-pane-action';
import type { PaneRequest } from '../lib/pane-request';
import { DialogCard } from './dialog-card';
import { WordsDrafts } from './option-words';
import { StatusLine } from './status-line';

/** How long words typed into a card's option stay once no card shows. */
const DRAFTS_OUTLIVE_MS = 10_000;
const draftsByPane = new Map<string, Map<string, string>>();
const draftsOf = (paneId: string): Map<string, string> => draftsByPane.get(paneId) ?? draftsByPane.set(paneId, new Map()).get(paneId)!;

/** Where the card was once its answer reached the agent: what was chosen, in words. */
interface Chosen {
  readonly requestId: string;
  readonly words: string;
}

/**
 * What the person must act on, above the mirror: the dialog card, and how the last answer
 * went. The line sits under the card it answered; once that card has gone (answered, or
 * replaced by another ask), it sits above whatever shows now. An answer that arrived is said
 * in words where the card was ("Allowed once: rm -rf ./build"), with a short buzz where the
 * phone has one.
 */
export function AskSlot({ paneId, card }: { readonly paneId: string; readonly card: Card | null }) {
  const action = usePaneAction(paneId);
  const [picked, setPicked] = useState<{ signature: string; option: CardOption; card: Card } | null>(null);
  const request = action.attempt?.request;
  const answered = request && (request.kind === 'answer' || request.kind === 'toggle') ? request.signature : null;
  const aboutThisCard = card !== null && answered === card.signature;
  const locked = action.busy || (aboutThisCard && action.line?.moving === true);
  const chosen = chosenWords(action.attempt?.requestId ?? null, action.receipt?.state === 'typed' ? picked : null);
  const chosenId = chosen?.requestId ?? null;
  // What was typed into an option's field outlives a re-read card and a move between the
  // Terminal and the Chat, not the ask: it goes with an answer, or once no card has shown for a
  // while (a redraw can show no dialog for a moment).
  const drafts = draftsOf(paneId);
  const asking = card !== null;
  useEffect(() => {
    if (asking) return;
    const timer = setTimeout(() => drafts.clear(), DRAFTS_OUTLIVE_MS);
    return () => clearTimeout(timer);
  }, [asking, drafts]);
  useEffect(() => {
    // Once per answer that arrived; Safari has no vibrate.
    if (chosenId !== null && typeof navigator.vibrate === 'function') navigator.vibrate(30);
  }, [chosenId]);
  const onAnswer = (next: PaneRequest): void => {
    drafts.clear();
    if (card && next.kind === 'answer') {
      const option = card.options.find((o) => o.n === next.option);
      setPicked(option ? { signature: card.signature, option, card } : null);
    } else setPicked(null);
    action.run(next);
  };
  if (card === null && action.line === null) return null;
  const status = chosen ? (
    <p className="answered" role="status">
      {chosen.words}
    </p>
  ) : (
    <StatusLine action={action} className="ask-status" />
  );
  const showCard = card !== null && !(chosen && aboutThisCard);
  return (
    <div className="ask">
      {aboutThisCard ? null : status}
      {showCard ? (
        <WordsDrafts.Provider value={drafts}>
          <DialogCard key={card.signature} card={card} locked={locked} onAnswer={onAnswer} />
        </WordsDrafts.Provider>
      ) : null}
      {aboutThisCard ? status : null}
    </div>
  );
}

function chosenWords(requestId: string | null, picked: { option: CardOption; card: Card } | null): Chosen | null {
  if (requestId === null || picked === null) return null;
  return { requestId, words: answerWords(picked.card, picked.option) };
}
