import type { Crew } from '../crew';
import type { Walky } from '../walky';

/**
 * What the bridge learns only later in its start (bridge.ts), read by the parts wired before:
 * the Host values and public address (after listen), walky and the crew (once the panes are
 * known), and whether the panes are known at all.
 */
export interface Late {
  /** Host header values allowed; empty until the port is known. */
  hosts: ReadonlySet<string>;
  /** The phone's "Pair another device" links to it once known. */
  publicUrl: string | null;
  /** Its phone routes answer `starting` until then. */
  walky: Walky | null;
  /** A member's pane and durable agent go to it. */
  crew: Crew | null;
  /** A phone that reconnects while discovery runs would read every pane as gone: it waits for this. */
  ready: boolean;
}

export function lateRefs(): Late {
  return { hosts: new Set(), publicUrl: null, walky: null, crew: null, ready: false };
}
