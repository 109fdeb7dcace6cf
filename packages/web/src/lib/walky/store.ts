import type { WalkyMessage, WalkyRefusalCounts } from '@collie/protocol';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useClientState } from '../../hooks/use-client';
import { fetchPaneWalky, fetchWalky } from './api';
import { mergeMessages } from './messages';

/**
 * The log as the phone knows it: one fetch of `/api/walky/messages` per bridge run (shared by
 * every component of the page), with the `walky.updated` events the model folded since.
 * `unavailable`: the bridge keeps no messages (it has no walky routes).
 */
export type WalkyLoad = { phase: 'loading' } | { phase: 'unavailable' } | { phase: 'ready'; machine: string; refusals: WalkyRefusalCounts; messages: readonly WalkyMessage[] };

let loaded: { run: string; load: WalkyLoad } | null = null;
let inFlight: string | null = null;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const current = () => loaded;

function load(run: string): void {
  if (inFlight === run || loaded?.run === run) return;
  inFlight = run;
  void fetchWalky().then((got) => {
    inFlight = null;
    const next: WalkyLoad = got.ok ? { phase: 'ready', ...got.value } : got.status === 404 ? { phase: 'unavailable' } : { phase: 'loading' };
    // A failed fetch is tried again on the next render of a new connection, not in a loop.
    loaded = next.phase === 'loading' ? null : { run, load: next };
    for (const l of listeners) l();
  });
}

/** Every message known, newest first, the event's copy winning over the fetched one. */
export function useWalky(): WalkyLoad {
  const { model, connection } = useClientState();
  const run = model?.run ?? null;
  const live = connection === 'live';
  useEffect(() => {
    if (live && run !== null) load(run);
  }, [live, run]);
  const got = useSyncExternalStore(subscribe, current);
  const events = model?.walky;
  return useMemo((): WalkyLoad => {
    if (!got || got.run !== run) return { phase: 'loading' };
    if (got.load.phase !== 'ready') return got.load;
    return { ...got.load, messages: mergeMessages(got.load.messages, events ? [...events.values()] : []) };
  }, [got, run, events]);
}

/** A message sent from this page lands in the list at once, before its event arrives. */
export function rememberSent(m: WalkyMessage): void {
  if (!loaded || loaded.load.phase !== 'ready') return;
  loaded = { ...loaded, load: { ...loaded.load, messages: mergeMessages(loaded.load.messages, [m]) } };
  for (const l of listeners) l();
}

/**
 * The ids the log holds, for marking text that prints them; null while the log cannot be read.
 * With a pane: that pane's log (a crew member's own for its pane on a lead), read again when
 * `again` changes.
 */
export function useLoggedIds(paneId?: string, again?: unknown): ReadonlySet<string> | null {
  const walky = usePaneWalky(paneId, again);
  return useMemo(() => (walky.phase === 'ready' ? new Set(walky.messages.map((m) => m.id)) : null), [walky]);
}

/**
 * The log a pane's cards come from. This machine's own (`useWalky`), or, for a crew member's
 * pane on a lead (`@<member>/…`), that member's own log read through the lead, with what the
 * lead itself logged for the pane folded in (its relays, their receipts as events). Read again
 * whenever `again` changes (the pane's Chat grew: a message may have been typed). When the
 * member's log cannot be read the answer is `unavailable`, and the phone claims nothing.
 */
export function usePaneWalky(paneId: string | undefined, again: unknown): WalkyLoad {
  const own = useWalky();
  const member = paneId?.startsWith('@') ? paneId : null;
  const [got, setGot] = useState<{ pane: string; load: WalkyLoad } | null>(null);
  useEffect(() => {
    if (member === null) return;
    let live = true;
    void fetchPaneWalky(member).then((r) => {
      if (!live) return;
      // A read that failed keeps what an earlier one found for this pane; none yet claims nothing.
      setGot((had) => (r.ok ? { pane: member, load: { phase: 'ready', ...r.value } } : had?.pane === member ? had : { pane: member, load: { phase: 'unavailable' } }));
    });
    return () => {
      live = false;
    };
  }, [member, again]);
  return useMemo((): WalkyLoad => {
    if (member === null) return own;
    if (!got || got.pane !== member) return { phase: 'loading' };
    if (got.load.phase !== 'ready') return got.load;
    const relayed = own.phase === 'ready' ? own.messages.filter((m) => m.to?.paneId === member || m.from.paneId === member) : [];
    return { ...got.load, messages: mergeMessages(got.load.messages, relayed) };
  }, [member, own, got]);
}
