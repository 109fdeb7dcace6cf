import { BackBar } from '../components/back-bar';
import { Notice } from '../components/notice';
import { useClientState } from '../hooks/use-client';

/** Any hash this app does not know. */
export function NotFound() {
  const { connection } = useClientState();
  return (
    <>
      <BackBar connection={connection} />
      <main className="page">
        <Notice title="Nothing here.">This link does not lead to a pane.</Notice>
      </main>
    </>
  );
}
