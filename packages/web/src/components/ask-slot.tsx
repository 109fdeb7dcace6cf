import type { DialogCard as Card } from '@collie/protocol';
import { usePaneAction } from '../hooks/use-pane-action';
import { DialogCard } from './dialog-card';
import { StatusLine } from './status-line';

/**
 * What the person must act on, above the mirror: the dialog card, and how the last answer
 * went. The line sits under the card it answered; once that card has gone (answered, or
 * replaced by another ask), it sits above whatever shows now.
 */
export function AskSlot({ paneId, card }: { readonly paneId: string; readonly card: Card | null }) {
  const action = usePaneAction(paneId);
  const request = action.attempt?.request;
  const answered = request && (request.kind === 'answer' || request.kind === 'toggle') ? request.signature : null;
  const aboutThisCard = card !== null && answered === card.signature;
  const locked = action.busy || (aboutThisCard && action.line?.moving === true);
  if (card === null && action.line === null) return null;
  const status = <StatusLine action={action} className="ask-status" />;
  return (
    <div className="ask">
      {aboutThisCard ? null : status}
      {card ? <DialogCard key={card.signature} card={card} locked={locked} onAnswer={action.run} /> : null}
      {aboutThisCard ? status : null}
    </div>
  );
}
