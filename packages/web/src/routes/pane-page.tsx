import { BackBar } from '../components/back-bar';
import { AskSlot } from '../components/ask-slot';
import { ComposerDock } from '../components/composer-dock';
import { Notice } from '../components/notice';
import { PaneHeader } from '../components/pane-header';
import { LeftInBox } from '../components/left-in-box';
import { RecentSends } from '../components/recent-sends';
import { TerminalView } from '../components/terminal-view';
import { useClientState } from '../hooks/use-client';
import { useMarkSeen } from '../hooks/use-mark-seen';
import { useScreen } from '../hooks/use-screen';

/**
 * `#/pane/<id>`: one pane. The ask it raised comes first (that is what the person must act
 * on), then the live mirror, the recent sends, and the composer kept at the foot.
 */
export function PanePage({ id }: { readonly id: string }) {
  const { model, connection } = useClientState();
  const pane = model?.panes.get(id);
  const frame = useScreen(id);
  useMarkSeen(id, pane);
  return (
    <>
      <BackBar connection={connection} />
      <main className="page page-pane">
        {pane ? (
          <>
            <PaneHeader pane={pane} />
            <AskSlot paneId={id} card={pane.card} />
            {frame ? <TerminalView frame={frame} /> : <Notice title="Waiting for the screen…" />}
            <LeftInBox paneId={id} receipts={model?.sends.get(id) ?? []} />
            <RecentSends receipts={model?.sends.get(id) ?? []} />
          </>
        ) : model === null ? (
          <Notice title="Connecting to the bridge…" />
        ) : (
          <Notice title="This pane is gone.">It was closed, or its tmux server is no longer watched.</Notice>
        )}
        {model === null ? null : <ComposerDock paneId={id} pane={pane} />}
      </main>
    </>
  );
}
