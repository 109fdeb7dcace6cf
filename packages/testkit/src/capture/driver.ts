import type { TmuxServer } from '../tmux';

/** What a correct reading of a captured screen is (the format of `harness/<agent>/captures/labels.json`). */
export interface CaptureLabel {
  state: 'idle' | 'working' | 'blocked' | 'unknown';
  dialog: string | null;
  draft: boolean;
  options?: string[];
  note: string;
}

/** What a driver is given: a private tmux server, and `keep` to save the pane's screen now under a label. */
export interface CaptureSession {
  readonly tmux: TmuxServer;
  keep(paneId: string, name: string, label: CaptureLabel): Promise<void>;
}

/**
 * One agent's capture driver (`packages/testkit/src/agents/<agent>/capture.ts`): starts the real
 * agent offline and drives it through its states, calling `keep` at each screen worth a label.
 */
export interface CaptureDriver {
  /** The harness folder the screens go to: `packages/bridge/src/harness/<agent>/captures/`. */
  readonly agent: string;
  capture(session: CaptureSession): Promise<{ version: string }>;
}
