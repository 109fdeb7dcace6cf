import type { DialogCard as Card } from '@collie/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { cardView, shownChecks, togglesFor } from '../lib/card-view';
import type { PaneRequest } from '../lib/pane-request';
import { DIALOG_WORDS } from '../lib/words';
import { CardOptions } from './card-options';
import { CardSteps } from './card-steps';
import { useMaySend } from '../hooks/use-client';
import { MayNotSend } from './may-not-send';

/**
 * The dialog the agent raised, as a card to answer with a tap. The parent keys it by the
 * card's signature, so a new ask starts from the screen's checkboxes. `locked` while an answer to
 * this ask is on its way: a second tap could press a second answer into the next dialog.
 */
export function DialogCard({
  card,
  locked,
  onAnswer,
}: {
  readonly card: Card;
  readonly locked: boolean;
  readonly onAnswer: (request: PaneRequest) => void;
}) {
  const view = useMemo(() => cardView(card), [card]);
  const maySend = useMaySend();
  const frame = useRef<HTMLElement>(null);
  // A new ask is what the person must act on: bring it into view if they had scrolled down
  // to the mirror. The parent remounts the card per ask, so this runs once per ask.
  useEffect(() => {
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    frame.current?.scrollIntoView({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
  }, []);
  const [changed, setChanged] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const checks = shownChecks(view, changed);
  const toggle = (n: number): void => setChanged((now) => new Map(now).set(n, !checks.has(n)));
  const pick = (n: number): void => onAnswer({ kind: 'answer', signature: card.signature, option: n });
  const words = (n: number, text: string): void => onAnswer({ kind: 'answer', signature: card.signature, option: n, text });
  const submit = (): void => onAnswer({ kind: 'toggle', signature: card.signature, toggle: togglesFor(view, checks) });
  return (
    <section ref={frame} className={`card${view.readOnly ? ' card-readonly' : ''}`} aria-label="The agent asks" aria-busy={locked}>
      <p className="card-kind">{DIALOG_WORDS[card.kind]}</p>
      {view.steps.length > 0 ? <CardSteps steps={view.steps} /> : null}
      {view.title ? <h2 className="card-title">{view.title}</h2> : null}
      {view.body.length > 0 ? (
        <pre className="card-body">
          {view.body.map((line, i) => (i === 0 ? line : `\n${line}`))}
        </pre>
      ) : null}
      {view.question ? <p className="card-question">{view.question}</p> : null}
      {view.note ? <p className="card-note">{view.note}</p> : null}
      {view.multi && maySend ? <p className="card-pick-any">Pick any number, then Submit.</p> : null}
      {/* A watch-only device reads the ask; the sentence stands where its answers would be. */}
      {maySend ? <CardOptions options={view.options} checks={checks} locked={locked} onPick={pick} onToggle={toggle} onWords={words} /> : <MayNotSend />}
      {view.multi && maySend ? (
        <button type="button" className="card-submit" onClick={submit} disabled={locked}>
          Submit
        </button>
      ) : null}
    </section>
  );
}
