import type { Pane } from '@collie/protocol';
import { useEffect, useMemo, useRef } from 'react';
import { BackBar } from '../components/back-bar';
import { AskSlot } from '../components/ask-slot';
import { ComposerDock } from '../components/composer-dock';
import { Notice } from '../components/notice';
import { LeftInBox } from '../components/left-in-box';
import { PaneAnnouncer } from '../components/pane-announcer';
import { PaneFacts, PaneTitle } from '../components/pane-header';
import { RecentSends } from '../components/recent-sends';
import { TerminalView } from '../components/terminal-view';
import { PaneViews, usePaneView } from '../components/pane-chat/pane-views';
import { useClientState } from '../hooks/use-client';
import { useEscapeBack } from '../hooks/use-escape-back';
import { useMarkSeen } from '../hooks/use-mark-seen';
import { useScreen } from '../hooks/use-screen';
import { useFollowFoot } from '../hooks/use-follow-foot';
import { WorkbenchLinks } from '../components/workbench/workbench-links';
import { MessagesMenuItem, WalkyPane } from '../components/walky/walky-pane';
import { idsIn, plainRows } from '../lib/walky/ids';
import { useLoggedIds } from '../lib/walky/store';

/**
 * `#/pane/<id>`: one pane. Its title row (with the Menu: what and where it is, Changes, Files,
 * Rename, Close), then the ask it raised right under it (that is what the person must act on; in
 * the Chat view it sits under the chat, just above the composer), the Chat or the live mirror,
 * and the composer kept at the foot. One page scroll: in the Chat view the page follows the
 * newest item while the person reads at the foot (`useFollowFoot`, as durable chats do). The
 * receipts of the person's sends are in the Chat; the Terminal view lists them under the mirror.
 */
export function PanePage({ id }: { readonly id: string }) {
  const { model, connection, down, maySend } = useClientState();
  const live = connection === 'live';
  const pane = useLastPane(id, model?.panes.get(id), live);
  const frame = useScreen(id);
  // A member's pane on a lead: the ids its rows print are looked up in that member's log.
  const onScreen = useMemo(() => (frame ? idsIn(plainRows(frame.lines)).join(' ') : ''), [frame]);
  const logged = useLoggedIds(id, onScreen);
  const views = usePaneView(id);
  useMarkSeen(id, pane);
  useEscapeBack();
  const hasPane = pane !== undefined;
  const { chatRef, dockRef } = useFollowFoot(true);
  const receipts = model?.sends.get(id) ?? [];
  const hasChat = views.chat?.source != null;
  // Focus lands on the title on arrival, so a screen reader starts where the page does.
  useEffect(() => {
    if (hasPane) document.getElementById('pane-title')?.focus({ preventScroll: true });
  }, [hasPane]);
  return (
    <>
      <BackBar connection={connection} />
      <main className={`page page-pane${down ? ' stale' : ''}`} ref={views.view === 'chat' ? chatRef : undefined}>
        {pane ? (
          <>
            <PaneTitle
              pane={pane}
              menu={
                <>
                  <PaneFacts pane={pane} menu={<MessagesMenuItem paneId={id} />} />
                  {/* Changes, Files, Rename and Close work on this machine's own panes; a crew member's are not carried yet. */}
                  {pane.member ? null : <WorkbenchLinks paneId={id} pane={pane} />}
                </>
              }
            />
            <PaneAnnouncer pane={pane} />
            {views.view === 'chat' ? null : <AskSlot paneId={id} card={pane.card} />}
            <PaneViews
              state={views}
              pane={pane}
              receipts={receipts}
              terminal={frame ? <TerminalView paneId={id} frame={frame} logged={logged} /> : <Notice title="Waiting for the screen…" />}
              ask={<AskSlot paneId={id} card={pane.card} />}
            />
            <WalkyPane pane={pane} frame={frame} />
            {/* "Send it" / "Clear it" act on the box: not for a watch-only device. */}
            {maySend ? <LeftInBox paneId={id} receipts={receipts} /> : null}
            {/* The Chat carries the receipts; the Terminal view (and a pane with no Chat) lists them under the mirror. */}
            {hasChat && views.view === 'chat' ? null : <RecentSends paneId={id} receipts={receipts} />}
          </>
        ) : !live ? (
          <Notice title="Connecting to the bridge…" />
        ) : (
          <Notice title="This pane is gone.">It was closed, or its tmux server is no longer watched.</Notice>
        )}
        {model === null ? null : <ComposerDock paneId={id} pane={pane} dockRef={dockRef} />}
      </main>
    </>
  );
}

/**
 * The pane as last seen: only a live bridge may say a pane is gone, so while the stream is
 * down (or a restarted bridge has not sent its panes yet) the last view stays.
 */
function useLastPane(id: string, pane: Pane | undefined, live: boolean): Pane | undefined {
  const last = useRef<Pane | undefined>(undefined);
  if (pane) last.current = pane;
  else if (live) last.current = undefined;
  return pane ?? (last.current?.id === id ? last.current : undefined);
}
