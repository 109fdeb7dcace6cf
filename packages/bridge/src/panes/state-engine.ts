import type { PaneState, ScreenReading } from '@collie/protocol';

/** A pane's state as the engine carries it from one reading to the next. */
export interface EngineState {
  state: PaneState;
  /** Epoch ms the pane entered `state`. */
  since: number;
  /** When an idle screen was first seen after a turn; null when not waiting to confirm. */
  idleSeenAt: number | null;
}

export interface StepResult {
  next: EngineState;
  /** Read the pane again at this time even if it prints nothing (to confirm an idle screen). */
  recheckAt: number | null;
}

/**
 * A turn's end must hold this long before it counts: between a permission being answered
 * and the next tool starting, an agent can draw one frame without its spinner.
 */
export const IDLE_CONFIRM_MS = 300;

/**
 * One step of the per-pane state machine, pure. Screens say idle, working, blocked or
 * unknown; history adds `done`: a turn ended (working → idle) and nobody has opened the
 * pane since. `seen` turns done back into idle.
 */
export function step(prev: EngineState | undefined, reading: ScreenReading, now: number, confirmMs = IDLE_CONFIRM_MS): StepResult {
  const enter = (state: PaneState): StepResult => ({
    next: { state, since: prev && prev.state === state ? prev.since : now, idleSeenAt: null },
    recheckAt: null,
  });
  if (reading.state !== 'idle') return enter(reading.state);
  if (!prev) return enter('idle');
  switch (prev.state) {
    case 'done':
    case 'idle':
      return enter(prev.state);
    case 'working':
    case 'blocked': {
      const firstSeen = prev.idleSeenAt ?? now;
      if (now - firstSeen < confirmMs) {
        return { next: { ...prev, idleSeenAt: firstSeen }, recheckAt: firstSeen + confirmMs };
      }
      // A turn that ran to its end is `done`; a dialog closed without a turn (the user
      // answered it at the terminal and the agent stopped) is plain idle: they were there.
      return enter(prev.state === 'working' ? 'done' : 'idle');
    }
    case 'unknown':
      return enter('idle');
  }
}

/** The pane was opened by someone: a finished turn has been looked at. */
export function seen(prev: EngineState, now: number): EngineState {
  return prev.state === 'done' ? { state: 'idle', since: now, idleSeenAt: null } : prev;
}
