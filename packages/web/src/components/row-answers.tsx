import { answerWords, waitsOnUser, type CardOption, type DialogCard, type Pane } from '@collie/protocol';
import { useMemo, useState } from 'react';
import { useMaySend } from '../hooks/use-client';
import { usePaneAction } from '../hooks/use-pane-action';
import { cardView } from '../lib/card-view';
import { CardOptions } from './card-options';
import { StatusLine } from './status-line';

/** The options a row offers: one tap for the narrowest yes and for a plain no, two for a wider grant. */
const OFFERED = /^(no|deny|reject|decline|don'?t)\b/i;

/**
 * A blocked row's answers on the dashboard, so the commonest ask needs no page change: the
 * card's narrowest yes and its no, one tap each, and any wider grant (tap, then confirm: the
 * card's own `CardOptions`). The same request, signature check and receipt as the pane page's
 * card (`usePaneAction`); once the answer reached the agent, the row says what was chosen
 * ("Allowed once: rm -rf ./build") until the pane asks again. Only asks with a narrowest yes
 * (permission, trust, plan) are offered; a question opens the pane.
 */
export function RowAnswers({ pane }: { readonly pane: Pane }) {
  const action = usePaneAction(pane.id);
  const maySend = useMaySend();
  const [picked, setPicked] = useState<{ card: DialogCard; option: CardOption } | null>(null);
  const card = pane.card && waitsOnUser(pane) && pane.card.answerable ? pane.card : null;
  const options = useMemo(() => {
    if (!card) return [];
    const view = cardView(card);
    if (view.multi || !view.options.some((o) => o.reach === 'primary')) return [];
    // Yes and No side by side first, the wider grants under them; words for the agent stay on the pane page.
    const offered = view.options.filter((o) => o.as === 'pick' && (o.reach !== 'plain' || OFFERED.test(o.label.trim()))).map((o) => ({ ...o, words: null }));
    const rank = (r: string) => (r === 'primary' ? 0 : r === 'plain' ? 1 : 2);
    return offered.sort((a, b) => rank(a.reach) - rank(b.reach));
  }, [card]);
  const answered = picked !== null && action.receipt?.state === 'typed' && card?.signature !== picked.card.signature;
  if (!maySend) return null;
  if (answered) {
    return (
      <p className="row-answered answered" role="status">
        {answerWords(picked.card, picked.option)}
      </p>
    );
  }
  const locked = action.busy || action.line?.moving === true;
  if (!card || options.length === 0) return action.line && picked ? <StatusLine action={action} className="row-status" /> : null;
  const pick = (n: number): void => {
    const option = card.options.find((o) => o.n === n);
    if (!option) return;
    setPicked({ card, option });
    action.run({ kind: 'answer', signature: card.signature, option: n });
  };
  return (
    <div className="row-answers" role="group" aria-label={`Answer ${pane.label}`}>
      <CardOptions options={options} checks={new Set()} locked={locked} onPick={pick} onToggle={() => undefined} onWords={() => undefined} />
      {picked && action.line ? <StatusLine action={action} className="row-status" /> : null}
    </div>
  );
}
