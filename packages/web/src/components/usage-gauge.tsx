import type { Pane } from '@collie/protocol';
import { contextShare, GAUGE_FROM, limitReached, limitWords } from '../lib/usage-words';

/** A dashboard row's usage: its limit when reached, a context gauge once context passes 60 %. */
export function UsageGauge({ pane, now }: { readonly pane: Pane; readonly now: number }) {
  if (limitReached(pane)) return <span className="row-limit">{limitWords(pane, now)}</span>;
  const share = contextShare(pane.usage);
  if (share === null || share <= GAUGE_FROM) return null;
  const pct = Math.round(share * 100);
  return (
    <span className="gauge" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={`Context ${pct} %`}>
      <span className="gauge-track" aria-hidden="true">
        <span className={`gauge-fill${share >= 0.9 ? ' gauge-high' : ''}`} style={{ width: `${pct}%` }} />
      </span>
      <span className="gauge-words">context {pct} %</span>
    </span>
  );
}

/** The pill of a pane at its usage limit: not "idle", it says so. */
export function LimitPill() {
  return (
    <span className="pill pill-limit">
      <span className="pill-dot" aria-hidden="true" />
      Limit reached
    </span>
  );
}
