import type { Harness, PaneState, ScreenReading } from '@collie/protocol';

/** What a send does with a pane as it was just read. */
export type Decision =
  | { action: 'type'; blind: boolean }
  | { action: 'hold'; reason: 'dialog' | 'working' | 'unreadable' }
  | { action: 'refuse'; reason: 'draft' | 'gone' };

/**
 * The send protocol's decision, pure. Nothing goes into an open dialog (the agent's or a
 * menu the user opened), no Enter into a running turn (it would steer the agent), nothing
 * over a draft (it is the user's). A pane with no screen reader (a shell) is typed blind; an
 * agent's screen its reader cannot read (caught between a clear and its redraw, or a layout
 * it does not know) is waited on, never typed blind: its redraw may be a dialog, whose first
 * option an Enter would choose.
 * An agent's own queue key is never used: a held send waits for the turn's end, which is
 * right for every version of every agent, known or not.
 */
export function decide(pane: { harness: Harness; state: PaneState; reading: ScreenReading } | null): Decision {
  if (!pane) return { action: 'refuse', reason: 'gone' };
  const { reading } = pane;
  if (reading.dialog !== null || reading.state === 'blocked') return { action: 'hold', reason: 'dialog' };
  if (reading.state === 'working') return { action: 'hold', reason: 'working' };
  // The screen reads idle but the engine has not confirmed the turn's end yet (a frame
  // without a spinner mid-turn, or between an answered dialog and the next tool): still a
  // running turn for a send. The engine's next state change wakes the held send.
  if (pane.state === 'working' || pane.state === 'blocked') return { action: 'hold', reason: 'working' };
  if (reading.draft !== null) return { action: 'refuse', reason: 'draft' };
  if (pane.harness === 'shell') return { action: 'type', blind: true };
  if (reading.state === 'unknown') return { action: 'hold', reason: 'unreadable' };
  return { action: 'type', blind: false };
}
