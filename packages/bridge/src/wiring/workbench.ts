import type { EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import type { SendService } from '../send/send-service';
import { startWorkbench, type Workbench } from '../workbench';
import type { Late } from './late';
import type { BridgeOptions } from './options';
import type { TmuxServers } from './tmux-servers';

/** Work from the phone over this machine's panes and tmux servers. */
export function startBridgeWorkbench(o: BridgeOptions, d: { hub: EventHub; redact: Redactor; sends: SendService; servers: TmuxServers; late: Late }): Promise<Workbench> {
  const { hub, sends, servers, late } = d;
  return startWorkbench({
    stateDir: o.stateDir,
    redact: d.redact,
    // A crew member's pane (`@<member>/…`) has its files on the member: never read them here.
    pane: (id) => (late.crew?.owns(id) ? undefined : hub.panes.get(id)),
    send: (id, text, requestId, summary) => sends.send(id, text, requestId, {}, summary),
    configDir: o.configDir ?? null,
    mux: (id) => {
      const at = servers.locate(id);
      return at ? { tmuxId: at.tmuxId, command: (args) => at.tracker.command(args) } : null;
    },
    panes: () => [...hub.panes.values()],
    setName: async (id, name) => {
      const at = servers.locate(id);
      return at ? at.tracker.setName(at.tmuxId, name) : false;
    },
    watch: (onEvent) => hub.subscribe(() => onEvent()),
    ...(o.env ? { env: o.env } : {}),
    sessions: () => servers.sessions(),
    open: (server, session, folder, argv) => servers.open(server, session, folder, argv),
  });
}
