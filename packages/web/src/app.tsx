import { lazy, Suspense, useEffect } from 'react';
import { ClientContext, useClientState } from './hooks/use-client';
import { useRoute } from './hooks/use-route';
import type { EventsClient } from './lib/events-client';
import { needsYou } from './lib/rank';
import { Dashboard } from './routes/dashboard';
import { NotFound } from './routes/not-found';
import { PanePage } from './routes/pane-page';
import { AuthGate } from './components/auth-gate';
import type { Route } from './lib/routes';
import { usePushPresence } from './lib/push/presence';

/**
 * The pages a phone opens first (the dashboard, a pane) come with the app; every other page is
 * its own chunk, loaded when it is first opened, so the first load stays inside its budget.
 */
const DevicesPage = lazy(() => import('./routes/devices-page').then((m) => ({ default: m.DevicesPage })));
const CrewPage = lazy(() => import('./routes/crew-page').then((m) => ({ default: m.CrewPage })));
const DurableHome = lazy(() => import('./routes/durable-home').then((m) => ({ default: m.DurableHome })));
const DurableChat = lazy(() => import('./routes/durable-chat').then((m) => ({ default: m.DurableChat })));
const DurableNew = lazy(() => import('./routes/durable-new').then((m) => ({ default: m.DurableNew })));
const DurableRead = lazy(() => import('./routes/durable-read').then((m) => ({ default: m.DurableRead })));
const ChangesPage = lazy(() => import('./routes/changes-page').then((m) => ({ default: m.ChangesPage })));
const SettingsPage = lazy(() => import('./routes/settings-page').then((m) => ({ default: m.SettingsPage })));
const NewPage = lazy(() => import('./routes/new-page').then((m) => ({ default: m.NewPage })));
const WorktreesPage = lazy(() => import('./routes/worktrees-page').then((m) => ({ default: m.WorktreesPage })));
const FilesPage = lazy(() => import('./routes/files-page').then((m) => ({ default: m.FilesPage })));
const SessionsPage = lazy(() => import('./routes/sessions-page').then((m) => ({ default: m.SessionsPage })));
const SessionPage = lazy(() => import('./routes/session-page').then((m) => ({ default: m.SessionPage })));
const FilePage = lazy(() => import('./routes/file-page').then((m) => ({ default: m.FilePage })));

export function App({ client }: { readonly client: EventsClient }) {
  return (
    <ClientContext value={client}>
      <TitleCount />
      <Routes />
    </ClientContext>
  );
}

/** Every page needs a paired device; the gate shows the pairing page to a browser without one. */
function Routes() {
  const route = useRoute();
  return (
    <AuthGate route={route}>
      <Suspense fallback={<p className="page-loading">Loading…</p>}>
        <Page route={route} />
      </Suspense>
      <PushPresence />
    </AuthGate>
  );
}

function Page({ route }: { readonly route: Route }) {
  switch (route.name) {
    case 'pair':
    case 'dashboard':
      return <Dashboard />;
    case 'pane':
      // Keyed so a new pane starts with fresh state (its first frame scrolls to the foot again).
      return <PanePage key={route.id} id={route.id} />;
    case 'devices':
      return <DevicesPage />;
    case 'crew':
      return <CrewPage />;
    case 'durable':
      return <DurableHome key={route.agent} agent={route.agent} />;
    case 'durable-chat':
      return <DurableChat key={`${route.agent}\n${route.id}`} agent={route.agent} id={route.id} />;
    case 'durable-new':
      return <DurableNew key={route.agent} agent={route.agent} />;
    case 'durable-read':
      return <DurableRead key={`${route.agent}\n${route.id}`} agent={route.agent} id={route.id} />;
    case 'changes':
      return <ChangesPage key={route.id} id={route.id} />;
    case 'settings':
      return <SettingsPage />;
    case 'new':
      return <NewPage />;
    case 'worktrees':
      return <WorktreesPage />;
    case 'files':
      return <FilesPage key={`${route.id}\n${route.path ?? ''}`} id={route.id} path={route.path} />;
    case 'file':
      return <FilePage key={`${route.id}\n${route.path}`} id={route.id} path={route.path} />;
    case 'sessions':
      return <SessionsPage />;
    case 'session':
      return <SessionPage key={`${route.agent}\n${route.id}\n${route.machine ?? ''}`} agent={route.agent} id={route.id} machine={route.machine} />;
    case 'not-found':
      return <NotFound />;
  }
}

/** The tab and task-switcher title count the panes that need you. */
function TitleCount() {
  const { model } = useClientState();
  const count = model ? [...model.panes.values()].filter(needsYou).length : 0;
  useEffect(() => {
    document.title = count > 0 ? `(${count}) Collie` : 'Collie';
  }, [count]);
  return null;
}

/** Tells the bridge the app is being looked at: no push then (see `lib/push/presence.ts`). */
function PushPresence() {
  usePushPresence();
  return null;
}
