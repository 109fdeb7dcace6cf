import type { WireAnswer } from '@collie/protocol';
import { useNow } from '../../hooks/use-now';
import type { CardView } from '../../lib/durable/cards';
import { expiryWords } from '../../lib/durable/countdown';
import { agentShownName, tapWords } from '../../lib/durable/words';
import { ChoiceAnswer, FormAnswer, PermissionAnswer, TextAnswer } from './question-answers';
import { useMaySend } from '../../hooks/use-client';
import { MayNotSend } from '../may-not-send';

function Expiry({ at }: { readonly at: number }) {
  const now = useNow();
  return <p className="card-expiry">{expiryWords(at, now)}</p>;
}

/**
 * A durable agent's question as a card in the chat: caption, title, the countdown, its words,
 * the answers of its kind, and after a tap what became of it ("Try again" resends the same
 * request id). Past the expiry the buttons stay: the durable agent answers a late tap itself.
 */
export function QuestionCard({ agent, view, send, retry }: { readonly agent: string; readonly view: CardView; readonly send: (a: WireAnswer) => void; readonly retry: () => void }) {
  const { question: q, tap, frozen, busy } = view;
  const off = frozen || busy;
  const maySend = useMaySend();
  const words = tap?.result ? tapWords(tap.result.outcome, tap.result.reason) : null;
  return (
    <section className={`card durable-card${frozen ? ' card-frozen' : ''}`} aria-label={q.title} data-question={q.id}>
      <p className="card-caption">Needs your answer · {agentShownName(agent)}</p>
      <h2 className="card-title">{q.title}</h2>
      {q.expiresAt !== null ? <Expiry at={q.expiresAt} /> : null}
      {/* A long body (a diff, a command) scrolls inside the card: it takes focus, so a keyboard can scroll it too. */}
      {q.body ? (
        <p className="card-body" tabIndex={0} role="region" aria-label="Details">
          {q.body}
        </p>
      ) : null}
      {q.shortened ? <p className="card-note card-shortened">Text shortened</p> : null}
      {!maySend ? (
        <MayNotSend />
      ) : q.kind === 'permission' ? (
        <PermissionAnswer key={q.version} q={q} off={off} send={send} />
      ) : q.kind === 'choice' ? (
        <ChoiceAnswer key={q.version} q={q} off={off} send={send} />
      ) : q.kind === 'text' ? (
        <TextAnswer key={q.version} q={q} off={off} send={send} />
      ) : q.kind === 'form' ? (
        <FormAnswer key={q.version} q={q} off={off} send={send} />
      ) : (
        <p className="card-note">This ask cannot be answered from the phone.</p>
      )}
      {words ? (
        <p className="card-result" role="status">
          {words}
        </p>
      ) : null}
      {tap?.result?.outcome === 'unsure' ? (
        <button type="button" className="button card-retry" onClick={retry}>
          Try again
        </button>
      ) : null}
    </section>
  );
}
