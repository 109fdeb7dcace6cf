import type { DeviceStore } from '../devices';
import type { DurableService } from '../durable';
import type { EventHub } from '../events/hub';
import type { Crew } from '../crew';
import type { PushConfig, PushService } from '../push';
import type { StoreRoots } from '../sessions';

// What startBridge (bridge.ts) takes and gives back.

export interface BridgeOptions {
  stateDir: string;
  /** 0 picks a free port. */
  port: number;
  /** A loopback address; config refuses anything else. */
  host: string;
  allowedHosts: readonly string[];
  machine: string;
  /** `<TMUX_TMPDIR>/tmux-<uid>`. */
  socketDir: string;
  redact: boolean;
  /** How long a send may be held for its pane (default 10 minutes). */
  holdMs?: number;
  webDir: string;
  version: string;
  env?: NodeJS.ProcessEnv;
  /** The config dir, where sources.json lists durable agents; without it, none are attached. */
  configDir?: string;
  /** Reconnect back-off of durable agents (ms); tests shorten it. */
  durableBackoff?: { first: number; max: number; mismatch: number };
  /** Walky talky: `off` refuses every message for this machine's panes; the rest are test knobs. */
  walky?: { off?: boolean; queueMs?: number; waitMs?: number; rescanMs?: number };
  /**
   * A clock a test controls, for walky's queue limit (2 minutes) and its log. The wall clock
   * otherwise. (The send protocol's hold keeps the wall clock: its pane trackers read it too.)
   */
  clock?: { now: () => number; setTimer: (fn: () => void, ms: number) => () => void };
  /** `COLLIE_PUBLIC_URL`: the address a phone opens (else tailscale serve's, when it serves this port). */
  publicUrl?: string | null;
  /** `COLLIE_TRUSTED_USER`: a `Tailscale-User-Login` let in without a device, from the proxy's user only. */
  trustedUser?: string | null;
  /** `COLLIE_TRUSTED_PROXY_USER` as a uid: whose connections may carry that login (default 0, root, as tailscaled runs). */
  trustedProxyUid?: number;
  /** Web Push: the debounce, reminder, presence window (`COLLIE_PUSH_*`); tests add their push service's CA. */
  push?: PushConfig;
  /** Crew test knobs: the member's reconnect back-off and its signing clock. */
  crew?: { backoff?: { first: number; max: number }; now?: () => number; walkyMachineMs?: number };
  /** Nerve's api.json (`COLLIE_NERVE_API`); default `<stateDir>/nerve/api.json`, Nerve's own default; null: no Nerve. */
  nerveApiFile?: string | null;
  /** Reconnect back-off to Nerve's event socket (ms); tests shorten it. */
  nerveBackoff?: { first: number; max: number };
  /** Where each agent keeps its sessions (the Sessions page); default from `env`'s HOME and each agent's variables. */
  sessionRoots?: Partial<StoreRoots>;
}

export interface Bridge {
  url: string;
  port: number;
  hub: EventHub;
  durable: DurableService;
  /** The paired devices; `devices.createOffer()` makes a pairing link and code. */
  devices: DeviceStore;
  /** The address a phone can open, when one is known. */
  publicUrl: string | null;
  push: PushService;
  crew: Crew;
  /** Whether a send to this pane waits for its usage-limit reset (for the "Ready again" push). */
  waitsForReset(paneId: string): boolean;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
