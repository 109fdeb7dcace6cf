import './lib/csp-safe-zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { fetchSnapshot } from './lib/api';
import { openBrowserSocket } from './lib/browser-socket';
import { EventsClient } from './lib/events-client';
import { registerServiceWorker } from './lib/service-worker';
import { auth } from './lib/auth-state';
import { addSymbolFont } from './lib/fonts';
import './styles/theme.css';
import './styles/base.css';
import './styles/switch.css';
import './styles/rows.css';
import './styles/pane.css';
import './styles/terminal.css';
import './styles/card.css';
import './styles/steps.css';
import './styles/status.css';
import './styles/composer.css';
import './styles/keys.css';
import './styles/sends.css';
import './styles/offline.css';
import './styles/devices.css';
import './styles/crew.css';
import './styles/durable.css';
import './styles/durable-chat.css';
import './styles/nerve.css';
import './styles/workbench.css';
import './styles/pane-chat.css';
import './styles/settings.css';
import './styles/usage.css';
import './styles/sessions.css';

const client = new EventsClient({
  fetchSnapshot,
  openSocket: openBrowserSocket,
  setTimer: (run, ms) => window.setTimeout(run, ms),
  clearTimer: (handle) => window.clearTimeout(handle as number),
  random: Math.random,
  log: (message, detail) => (detail === undefined ? console.warn(message) : console.warn(message, detail)),
  now: Date.now,
  visible: () => document.visibilityState === 'visible',
});
// The events client runs while this browser is a paired device, and stops when it is removed.
let paired = false;
auth.subscribe(() => {
  const now = auth.getState().status === 'paired';
  if (now && !paired) void client.start();
  if (!now && paired) client.stop();
  paired = now;
});
const stripLink = () => window.history.replaceState(null, '', `${window.location.pathname}#/`);
void auth.start(window.location.hash, stripLink);
// A pairing link opened in this tab while it is open: registered before the app's own route
// listener, so the token is out of the address bar before the route is read.
window.addEventListener('hashchange', () => void auth.follow(window.location.hash, stripLink));

// A phone suspends sockets and timers in the background: reconnect the moment it is back.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void client.wake();
});
window.addEventListener('online', () => void client.wake());
window.addEventListener('offline', () => client.offline());

const root = document.getElementById('root');
if (!root) throw new Error('web: index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);

addSymbolFont();
registerServiceWorker();
