import { Notice } from '../components/notice';
import { PaneHeader } from '../components/pane-header';
import { TerminalView } from '../components/terminal-view';
import { TopBar } from '../components/top-bar';
import { useClientState } from '../hooks/use-client';
import { useMarkSeen } from '../hooks/use-mark-seen';
import { useScreen } from '../hooks/use-screen';
import { dashboardHref } from '../lib/routes';

/** `#/pane/<id>`: one pane, its header and a live mirror of its screen. */
export function PanePage({ id }: { readonly id: string }) {
  const { model, connection } = useClientState();
  const pane = model?.panes.get(id);
  const frame = useScreen(id);
  useMarkSeen(id, pane);
  return (
    <>
      <TopBar connection={connection}>
        <a className="back" href={dashboardHref()}>
          <span aria-hidden="true">‹</span> Panes
        </a>
      </TopBar>
      <main className="page page-pane">
        {pane ? (
          <>
            <PaneHeader pane={pane} />
            {frame ? <TerminalView frame={frame} /> : <Notice title="Waiting for the screen…" />}
          </>
        ) : model === null ? (
          <Notice title="Connecting to the bridge…" />
        ) : (
          <Notice title="This pane is gone.">It was closed, or its tmux server is no longer watched.</Notice>
        )}
      </main>
    </>
  );
}
