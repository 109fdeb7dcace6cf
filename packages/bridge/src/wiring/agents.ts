import { join } from 'node:path';
import { startDurable, type DurableService } from '../durable';
import type { EventHub } from '../events/hub';
import { startNerveLink, type NerveLink } from '../nerve';
import type { Redactor } from '../redact';
import { defaultRoots, startSessions, type Sessions } from '../sessions';
import { startPaneChats, type PaneChats } from '../transcripts';
import type { BridgeOptions } from './options';
import type { TmuxServers } from './tmux-servers';

// The agents the bridge follows beside the panes' screens: durable agents, Nerve, each pane's
// chat from its agent's transcript, and every past session of the machine's agents.

export function startDurableAgents(o: BridgeOptions, hub: EventHub, redact: Redactor): Promise<DurableService> {
  return startDurable({
    hub,
    stateDir: o.stateDir,
    configDir: o.configDir ?? null,
    machine: o.machine,
    redact,
    ...(o.durableBackoff ? { backoff: o.durableBackoff } : {}),
  });
}

export function linkNerve(o: BridgeOptions, hub: EventHub): { link: NerveLink; apiFile: string | null } {
  const apiFile = o.nerveApiFile === undefined ? join(o.stateDir, 'nerve', 'api.json') : o.nerveApiFile;
  return { link: startNerveLink({ hub, apiFile, ...(o.nerveBackoff ? { backoff: o.nerveBackoff } : {}) }), apiFile };
}

export function startChats(hub: EventHub, redact: Redactor): PaneChats {
  return startPaneChats({
    panes: hub.panes,
    subscribe: (l) => hub.subscribe(l),
    redact,
    // Every agent pane's usage, from the transcript its chat follows (docs/api.md: Pane.usage).
    usage: (id, usage) => hub.setUsage(id, usage),
    all: () => hub.panes.values(),
  });
}

export function startSessionStores(o: BridgeOptions, hub: EventHub, redact: Redactor, servers: TmuxServers): Sessions {
  return startSessions({
    roots: { ...defaultRoots(o.env ?? process.env), ...o.sessionRoots },
    redact,
    panes: () => [...hub.panes.values()],
    publish: (c) => hub.publish(c),
    subscribe: (l) => hub.subscribe(l),
    stateDir: o.stateDir,
    servers: () => servers.names(),
  });
}
