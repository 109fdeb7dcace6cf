import { askLine, waitsOnUser, type Pane } from '@collie/protocol';
import { useClientState } from '../hooks/use-client';
import { useNow } from '../hooks/use-now';
import { rowName, seenAgo } from '../lib/pane-words';
import { waitingSends } from '../lib/receipts';
import { paneHref } from '../lib/routes';
import { DIALOG_WORDS, HARNESS_WORDS } from '../lib/words';
import { Elapsed } from './elapsed';
import { PaneFlags } from './pane-flags';
import { PaneLabel } from './pane-label';
import { RowAnswers } from './row-answers';
import { StatePill } from './state-pill';
import { LimitPill, UsageGauge } from './usage-gauge';
import { limitReached, limitWords } from '../lib/usage-words';

/**
 * One pane on the dashboard; the whole row opens the pane. Its accessible name says what a
 * sighted person reads at a glance: "shop#main, Blocked for 58 seconds, Permission, 1 queued".
 */
export function PaneRow({ pane }: { readonly pane: Pane }) {
  const { model, down } = useClientState();
  const now = useNow();
  const queued = model ? waitingSends(model.sends, pane.id).length : 0;
  // What the agent asks, in one line ("Bash: rm -rf ./build"), the same words its push carries.
  const ask = pane.card && waitsOnUser(pane) ? askLine(pane.card) : null;
  // A crew member's pane whose member the lead cannot reach: greyed, with when it was last seen.
  const away = pane.member && !pane.member.reachable ? `Unreachable, last seen ${seenAgo(pane.member.lastSeen, now)}` : null;
  const limit = limitReached(pane);
  const extra = [away, limit ? limitWords(pane, now) : null, pane.dialog ? DIALOG_WORDS[pane.dialog] : null, pane.draft !== null ? 'draft typed' : null, queued > 0 ? `${queued} queued` : null, ask];
  const name = rowName(pane, down?.since ?? now, extra.filter((x) => x !== null));
  return (
    <li>
      <a className={`row row-${pane.state}${away ? ' row-unreachable' : ''}${limit ? ' row-at-limit' : ''}`} href={paneHref(pane.id)} aria-label={name}>
        <span className="row-main">
          <span className="row-label">
            <PaneLabel pane={pane} />
          </span>
          <span className="row-meta">
            {HARNESS_WORDS[pane.harness]} · {pane.member?.name ?? pane.machine} · {pane.windowIndex}:{pane.windowName}
          </span>
          {away ? <span className="row-away">{away}</span> : null}
          {ask ? <span className="row-ask">{ask}</span> : null}
          <UsageGauge pane={pane} now={now} />
          <span className="row-flags">
            <PaneFlags pane={pane} />
            {queued > 0 ? <span className="flag flag-queued">{queued} queued</span> : null}
          </span>
        </span>
        <span className="row-side">
          {away ? (
            <span className="pill pill-unknown">
              <span className="pill-dot" aria-hidden="true" />
              Unreachable
            </span>
          ) : limit ? (
            <LimitPill />
          ) : (
            <StatePill state={pane.state} harness={pane.harness} />
          )}
          {pane.harness === 'shell' || away ? null : <Elapsed since={pane.since} />}
        </span>
      </a>
      <RowAnswers pane={pane} />
    </li>
  );
}
