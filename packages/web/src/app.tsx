import { useEffect } from 'react';
import { ClientContext, useClientState } from './hooks/use-client';
import { useRoute } from './hooks/use-route';
import type { EventsClient } from './lib/events-client';
import { needsYou } from './lib/rank';
import { Dashboard } from './routes/dashboard';
import { NotFound } from './routes/not-found';
import { PanePage } from './routes/pane-page';
import { AuthGate } from './components/auth-gate';
import { DevicesPage } from './routes/devices-page';
import { CrewPage } from './routes/crew-page';
import type { Route } from './lib/routes';
import { DurableHome } from './routes/durable-home';
import { DurableChat } from './routes/durable-chat';
import { DurableNew } from './routes/durable-new';
import { DurableRead } from './routes/durable-read';
import { ChangesPage } from './routes/changes-page';
import { SettingsPage } from './routes/settings-page';
import { NewPage } from './routes/new-page';
import { WorktreesPage } from './routes/worktrees-page';
import { FilesPage } from './routes/files-page';
import { FilePage } from './routes/file-page';
import { usePushPresence } from './lib/push/presence';

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
      <Page route={route} />
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
