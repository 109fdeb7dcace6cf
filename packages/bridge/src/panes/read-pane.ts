import { readScreen } from '../harness';
import { readCard } from '../harness/card';
import type { TmuxPane } from '../mux/tmux';
import { harnessFromFacts } from './pane-facts';
import { paneId } from './pane-view';
import { step } from './state-engine';
import { publishView, type Tracked, type TrackerCore } from './tracked-pane';

/**
 * One read of one pane: its facts and screen from tmux, its agent, the screen's reading and
 * dialog card, the engine's step (and the recheck it asks for), then the view published and a
 * frame to the watchers when the screen changed.
 */
export async function readPaneOnce(c: TrackerCore, tmuxId: string, t: Tracked): Promise<void> {
  const { d } = c;
  t.lastRead = c.now();
  let info: TmuxPane | null;
  let capture;
  try {
    [info, capture] = await Promise.all([d.server.describePane(tmuxId), d.server.capture(tmuxId)]);
  } catch {
    t.closed = true; // the pane closed between the notification and the read; structure follows
    return;
  }
  t.closed = !info;
  if (!info || c.panes.get(tmuxId) !== t) return;
  t.info = info;
  const key = `${info.pid}:${info.command}`;
  if (key !== t.harnessKey) {
    t.procHarness = await d.harnessOf(info);
    t.harnessKey = key;
  }
  t.label = d.tokens.nameOf(c.tokenKey(tmuxId)) ?? (await d.labelOf(info));
  const screen = capture.lines.join('\n');
  t.harness = harnessFromFacts(t.procHarness, info.command, screen);
  const reading = readScreen(t.harness, screen);
  t.reading = reading;
  d.onRead?.(t.harness, info.pid, reading, screen, paneId(c.name, tmuxId));
  const card = reading.dialog === null ? null : readCard(t.harness, screen);
  if (card?.signature !== t.card?.signature) t.cardSince = c.now();
  t.card = card;
  const { next, recheckAt } = step(t.engine, reading, c.now());
  t.engine = next;
  if (recheckAt !== null) c.schedule(tmuxId, Math.max(0, recheckAt - c.now()));
  const changed = capture.lines.length !== t.lines.length || capture.lines.some((l, i) => l !== t.lines[i]) || capture.cursor?.x !== t.cursor?.x || capture.cursor?.y !== t.cursor?.y;
  t.lines = capture.lines;
  t.cursor = capture.cursor;
  publishView(c, tmuxId, t);
  if (changed) {
    t.frame++;
    c.frameChanged(tmuxId, t);
  }
}
