import { NeedsYouSwitch } from '../components/needs-you-switch';
import { Notice } from '../components/notice';
import { ServerNotices } from '../components/server-notices';
import { SpaceSection } from '../components/space-section';
import { TopBar } from '../components/top-bar';
import { useClientState } from '../hooks/use-client';
import { useStoredFlag } from '../hooks/use-stored-flag';
import type { Model } from '../lib/model';
import { groupIntoSpaces } from '../lib/rank';
import { StoppedSessionsPanel } from '../components/stopped-sessions';
import { crewHref, devicesHref, newHref, sessionsHref, settingsHref } from '../lib/routes';
import { summarize } from '../lib/durable/summary';
import { DurableSection } from '../components/durable/durable-section';
import { MessageAll } from '../components/walky/message-all';

/** Remembered across visits: the person's choice of what the dashboard lists. */
const NEEDS_YOU_KEY = 'collie.needs-you-only';

/** `#/`: every pane, the ones that need you first, grouped by space. */
export function Dashboard() {
  const { model, connection, down } = useClientState();
  const [needsYouOnly, setNeedsYouOnly] = useStoredFlag(NEEDS_YOU_KEY, false);
  return (
    <>
      <TopBar connection={connection}>
        <h1 className="brand">Collie</h1>
        <a className="topbar-new" href={newHref()}>
          New pane
        </a>
      </TopBar>
      <main className={`page${down ? ' stale' : ''}`}>
        <StoppedSessionsPanel />
        <NeedsYouSwitch on={needsYouOnly} onChange={setNeedsYouOnly} />
        {model === null ? (
          connection === 'reconnecting' ? (
            <Notice title="Can't reach the bridge.">Trying again. Check that Collie is running on this machine.</Notice>
          ) : (
            <Notice title="Connecting to the bridge…" />
          )
        ) : (
          <PaneList model={model} needsYouOnly={needsYouOnly} live={connection === 'live'} />
        )}
        {model !== null && model.panes.size > 0 ? <MessageAll /> : null}
        <p className="dash-foot">
          <a href={crewHref()}>Crew</a> · <a href={sessionsHref()}>Sessions</a> · <a href={devicesHref()}>Devices</a> · <a href={settingsHref()}>Settings</a>
        </p>
      </main>
    </>
  );
}

function PaneList({ model, needsYouOnly, live }: { readonly model: Model; readonly needsYouOnly: boolean; readonly live: boolean }) {
  const { spaces, showOrigin, hidden } = groupIntoSpaces(model.panes.values(), needsYouOnly);
  // Durable agents: below the spaces, above them while one waits on you; the filter keeps those that wait.
  const durable = summarize(model.durable).filter((r) => !needsYouOnly || r.waiting > 0);
  const durableFirst = durable.some((r) => r.waiting > 0);
  return (
    <>
      <ServerNotices servers={model.servers.values()} />
      {durableFirst ? <DurableSection rows={durable} /> : null}
      {model.panes.size === 0 && !live ? (
        // Only a live bridge may say there are no panes: this model may be an empty start.
        <Notice title="Waiting for the bridge…" />
      ) : model.panes.size === 0 ? (
        <Notice title="No agent panes yet.">
          Start an agent in tmux, or run <code>collie demo</code>.
        </Notice>
      ) : spaces.length === 0 ? (
        // A durable agent that waits on you is above: then it is only the panes that need nothing.
        <Notice title={durableFirst ? 'No pane needs you right now.' : 'Nothing needs you right now.'}>
          {hidden === 1 ? '1 pane is' : `${hidden} panes are`} working or idle. Turn off the switch to see them.
        </Notice>
      ) : (
        spaces.map((space) => <SpaceSection key={space.key} space={space} showOrigin={showOrigin} />)
      )}
      {durableFirst ? null : <DurableSection rows={durable} />}
    </>
  );
}
