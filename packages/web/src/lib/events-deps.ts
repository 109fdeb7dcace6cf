import type { Snapshot } from '@collie/protocol';

/** What the events client hears from one socket. */
export interface SocketHandlers {
  onMessage(text: string): void;
  onClose(): void;
}

/** Where a connection resumes: after event `since` of bridge process `run`. */
export interface ResumePoint {
  readonly since: number;
  readonly run: string;
}

export interface SocketConn {
  send(text: string): void;
  close(): void;
}

/** Everything with a side effect, passed in so the client runs in tests without a browser. */
export interface EventsClientDeps {
  fetchSnapshot(): Promise<Snapshot>;
  openSocket(from: ResumePoint, handlers: SocketHandlers): SocketConn;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  random(): number;
  log(message: string, detail?: unknown): void;
  /** Epoch ms (the time the stream went down is shown, and timers freeze at it); Date.now by default. */
  now?(): number;
  /** Whether a person sees the page: retries stay under a second while they do. True by default. */
  visible?(): boolean;
}
