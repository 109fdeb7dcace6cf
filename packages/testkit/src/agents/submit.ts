import type { TmuxServer } from '../tmux';

const squeeze = (t: string): string => t.replace(/\s+/g, '');

/** A model API's request log, as the scripted APIs keep it (the same array, growing). */
export type RequestLog = readonly { body: unknown }[];

/**
 * Types `text` at a pane as a person would, waits until the agent's input box shows it, then
 * presses Enter until the box no longer holds it. A TUI still settling after start, or redrawing
 * under load, can swallow one Enter; a second Enter on an emptied box submits nothing.
 * Without a box reader the text is looked for on the whole screen and Enter is pressed once.
 *
 * With the model API's request log, Enter is never pressed again once a request carrying the
 * text has arrived: an agent too loaded to redraw its box may already have the model's answer,
 * and a dialog that answer opens would take the second Enter as its answer.
 */
export async function submitTyped(tmux: TmuxServer, paneId: string, text: string, box?: (screen: string) => string | undefined, timeoutMs = 10_000, requests?: RequestLog): Promise<void> {
  const tail = squeeze(text).slice(-30);
  const needle = JSON.stringify(text.trim().slice(-24)).slice(1, -1);
  const seen = requests?.length ?? 0;
  const delivered = () => requests !== undefined && requests.slice(seen).some((r) => JSON.stringify(r.body ?? null).includes(needle));
  const inBox = (s: string) => squeeze((box ? box(s) : s) ?? '').includes(tail);
  await tmux.typeText(paneId, text);
  await tmux.waitForScreen(paneId, inBox, timeoutMs);
  if (!box) {
    await tmux.sendKeys(paneId, 'Enter');
    return;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await tmux.sendKeys(paneId, 'Enter');
    const left = deadline - Date.now();
    try {
      await tmux.waitForScreen(paneId, (s) => !inBox(s), Math.max(1, Math.min(left, 1_500)));
      return;
    } catch (err) {
      if (delivered()) return;
      if (left <= 1_500) throw new Error(`Enter did not submit ${JSON.stringify(text.slice(0, 40))}: ${String(err)}`);
    }
  }
}
