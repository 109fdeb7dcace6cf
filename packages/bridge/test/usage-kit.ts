import { Pane, type PaneUsage } from '@collie/protocol';
import type { TestBridge } from './harness';
import { until } from './harness';

/** The pane as `GET /api/panes/:id` gives it, behind the device gate. */
export async function paneOverApi(bridge: TestBridge, id: string): Promise<Pane> {
  const res = await fetch(`${bridge.url}/api/panes/${encodeURIComponent(id)}`, { headers: bridge.device.headers });
  if (!res.ok) throw new Error(`GET pane: ${res.status}`);
  return Pane.parse(await res.json());
}

/** Waits until the pane's usage passes `check` in the bridge's model; returns it. */
export function usageUntil(bridge: TestBridge, id: string, what: string, check: (u: PaneUsage) => boolean, ms: number): Promise<PaneUsage> {
  return until(bridge.hub, what, (h) => {
    const u = h.panes.get(id)?.usage;
    return u && check(u) ? u : null;
  }, ms);
}
