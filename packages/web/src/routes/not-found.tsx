import { Notice } from '../components/notice';
import { TopBar } from '../components/top-bar';
import { useClientState } from '../hooks/use-client';
import { dashboardHref } from '../lib/routes';

/** Any hash this app does not know. */
export function NotFound() {
  const { connection } = useClientState();
  return (
    <>
      <TopBar connection={connection}>
        <a className="back" href={dashboardHref()}>
          <span aria-hidden="true">‹</span> Panes
        </a>
      </TopBar>
      <main className="page">
        <Notice title="Nothing here.">This link does not lead to a pane.</Notice>
      </main>
    </>
  );
}
