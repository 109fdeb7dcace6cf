import { type ReactNode, useEffect } from 'react';
import { useAuth } from '../hooks/use-auth';
import type { Route } from '../lib/routes';
import { dashboardHref } from '../lib/routes';
import { PairPage } from '../routes/pair-page';
import { Notice } from './notice';
import { TopBar } from './top-bar';

/**
 * Shows the app only to a paired device. Until the bridge has said so, nothing of the machine
 * is shown: the pairing page, or a bare bar while asking.
 */
export function AuthGate({ route, children }: { readonly route: Route; readonly children: ReactNode }) {
  const auth = useAuth();
  useEffect(() => {
    // Already paired: a pairing link is not spent, only taken out of the address bar.
    if (auth.status === 'paired' && route.name === 'pair') window.history.replaceState(null, '', `${window.location.pathname}${dashboardHref()}`);
  }, [auth.status, route.name]);
  if (auth.status === 'paired') return children;
  if (auth.status === 'unpaired') return <PairPage reason={auth.reason} />;
  return (
    <>
      <TopBar connection={auth.status === 'unreachable' ? 'reconnecting' : 'connecting'}>
        <span className="brand">Collie</span>
      </TopBar>
      <main className="page">
        {auth.status === 'unreachable' ? <Notice title="Can't reach the bridge.">Check that Collie is running on this machine, then reload.</Notice> : null}
      </main>
    </>
  );
}
