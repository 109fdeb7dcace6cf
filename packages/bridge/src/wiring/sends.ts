import { join } from 'node:path';
import { SENDS_PER_PANE, type EventHub } from '../events/hub';
import type { Redactor } from '../redact';
import { ReceiptStore } from '../send/receipt-store';
import { SendService } from '../send/send-service';
import type { BridgeOptions } from './options';
import type { TmuxServers } from './tmux-servers';

/** The send protocol over this machine's panes, with its receipts of earlier runs. */
export async function startSends(o: BridgeOptions, hub: EventHub, redact: Redactor, servers: TmuxServers): Promise<{ store: ReceiptStore; sends: SendService }> {
  const bufferDir = join(o.stateDir, 'sends');
  const store = await ReceiptStore.open(o.stateDir);
  const sends = new SendService({ store, hub, locate: (id) => servers.locate(id), redact, holdMs: o.holdMs ?? 10 * 60_000, bufferDir });
  // The phone sees sends of earlier runs: every one not final, and the latest receipts per pane.
  for (const receipt of store.latest(SENDS_PER_PANE)) hub.publish({ type: 'send.updated', receipt });
  return { store, sends };
}
