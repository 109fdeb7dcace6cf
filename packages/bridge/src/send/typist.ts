import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatLiteral, inputOffCommands, inputOnCommands } from '../mux/tmux';
import type { PaneNow } from '../panes/pane-tracker';
import { AGENTS } from '../harness/agents';
import { graphemes, matchBox, withoutOurs, boxForm, type BoxMatch } from './box-match';
import { screenChanged, screenGuard } from './enter-guard';

export interface TypistDeps {
  /** Run a tmux command through the pane's server (control mode). */
  command(args: readonly string[]): Promise<string[]>;
  /** Run tmux commands as one batch no other client's keys come between. */
  commands(list: readonly (readonly string[])[]): Promise<string[][]>;
  /** Read the pane now. */
  readNow(): Promise<PaneNow | null>;
  /** A 0700 directory for the paste buffers' files. */
  bufferDir: string;
  /** Resolves at the pane's next output (true), or false after `ms` without any. */
  nextOutput?(tmuxId: string, ms: number): Promise<boolean>;
}

/**
 * - `typed`: the box held exactly the text, Enter went in, the box emptied (`closed`: the pane
 *   closed after the Enter went in, as when the text ends the agent: it took the text);
 * - `mixed`: someone typed in the pane at the same time; Enter was not pressed. `left` is
 *   what the box holds now (null: nothing; `restored`: what they typed, with ours taken out);
 * - `not_arrived`: the text never showed in the box (nothing of it is there);
 * - `not_submitted`: Enter did not empty the box; the text is still there (`dialog`: a dialog the
 *   agent opened as the Enter went in took it as its answer, and went);
 * - `held`: a dialog came over the box after the text was typed, before Enter (the agent opened
 *   it on its own): Enter was not pressed, the text may wait in the box behind the dialog, and
 *   the pane's input is on again, so the dialog can be answered;
 * - `gone`: the pane closed.
 */
export type TypeResult =
  | { result: 'typed'; closed?: true }
  | { result: 'mixed'; left: string | null; restored: boolean }
  | { result: 'not_arrived' }
  | { result: 'not_submitted'; left: string; dialog?: true }
  | { result: 'held' }
  | { result: 'gone' }
  /** The paste's file could not be written (the state disk full): nothing was typed. */
  | { result: 'unsaved' };

/** How long typed text may take to show in the box (the pane takes no keys meanwhile). */
export const VERIFY_MS = 3000;
/**
 * How long the box may take to empty after Enter. Longer: a receipt that says "not
 * submitted" must not be wrong, and a loaded machine has kept the agent from drawing the
 * submitted box for over 3 s (seen in tests, 2026-12-03).
 */
export const SUBMIT_MS = 10_000;
const STEP_MS = 15;
/** How many times switching a pane's input on again is tried (a pane gone fails every time). */
const INPUT_ON_TRIES = 3;

async function until(d: TypistDeps, ok: (p: PaneNow) => boolean, ms = VERIFY_MS): Promise<PaneNow | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const last = await d.readNow();
    if (!last || ok(last) || Date.now() > deadline) return last;
    await new Promise((r) => setTimeout(r, STEP_MS));
  }
}

const matchOf = (p: PaneNow, text: string): BoxMatch => matchBox(p.reading.draft, text, AGENTS[p.harness].pastePlaceholder);

/**
 * Type `text` into a pane and submit it, so that it submits exactly this text or nothing.
 *
 * The text goes in as one bracketed paste (`paste-buffer -p`: line breaks stay text), from a
 * file through `load-buffer`, so no byte of it is parsed by tmux. In the same tmux batch the
 * pane's input is switched off (`select-pane -d`), the pane marked as ours: a bridge that dies
 * before it is on again leaves that to the next (`mux/tmux/left-off.ts`). That makes the paste
 * a fence: keys someone typed before it reach the agent before it, so once the box shows the
 * paste it shows them too; keys after it are not taken until the text is submitted. The box must then hold
 * exactly the text (`matchBox`), else Enter is not pressed and what we pasted is taken out
 * again with Backspace, leaving what they typed. Enter goes in one batch with input on
 * before it and off again after it, and input comes back on once the box shows the text
 * submitted: a key that reaches the agent in the same read as the Enter makes Claude Code
 * drop both (seen 2026-12-04), and one read before it would be submitted with the text.
 * The Enter's batch starts with the Enter guard (`enter-guard.ts`): it is pressed only onto
 * the screen the box was checked on. A dialog the agent opens over the box after the paste
 * holds the send (`held`); `inBox` then submits the text the box still holds, once the
 * dialog is answered, with the same checks and no second paste.
 *
 * The price: from the paste until the agent shows the text submitted (drawing the paste,
 * screen reads, drawing the submit: tens of milliseconds; at most `VERIFY_MS` more after
 * Enter) the pane takes no keys from anyone, as tmux drops keys to a pane whose input is
 * off. A blind pane (a shell: no screen reader) is pasted and submitted without checks.
 */
export async function typeAndSubmit(d: TypistDeps, tmuxId: string, text: string, blind: boolean, inBox = false): Promise<TypeResult> {
  if (inBox) {
    // The text is in the box already (a dialog came over it before its Enter): input off, then the same checks.
    if (!(await d.commands(inputOffCommands(tmuxId)).then(() => true, () => false))) return { result: 'gone' };
  } else {
    const pasted = await paste(d, tmuxId, text, blind);
    if (pasted !== 'pasted') return pasted;
  }
  let inputOff = true;
  let entered = false;
  const inputOn = async () => {
    if (!inputOff) return;
    inputOff = false;
    // A batch fails when the control client it went through ends with it (its session killed):
    // switching input on is the same done twice, so it is tried again, through the next client.
    for (let i = 0; i < INPUT_ON_TRIES; i++) {
      if (await d.commands(inputOnCommands(tmuxId)).then(() => true, () => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    const seen = await until(d, (p) => covered(p, text) || ['ours', 'ours_and_more'].includes(matchOf(p, text)));
    if (!seen) return { result: 'gone' };
    if (covered(seen, text)) return { result: 'held' };
    const m = matchOf(seen, text);
    if (m === 'empty') return { result: 'not_arrived' };
    // After a hold, keys someone typed came after ours: they are not taken out, only reported.
    if (m !== 'ours') return inBox ? { result: 'mixed', left: seen.reading.draft, restored: false } : await takeOursOut(d, tmuxId, text, seen);
    // Some agents take an Enter that follows a paste too closely as a line break in it
    // (`AgentReader.submitDelayMs`); input is still off, so no one's keys come in meanwhile.
    const settle = AGENTS[seen.harness].submitDelayMs ?? 0;
    if (settle > 0) await new Promise((r) => setTimeout(r, settle));
    const first = await enterOnto(d, tmuxId, text, seen);
    if (first !== 'pressed') return first;
    entered = true;
    const waited = await afterEnter(d, text);
    if (waited.tookDialog) return { result: 'not_submitted', left: waited.tookDialog.reading.draft ?? text, dialog: true };
    // A dialog came and the Enter was not its answer: the text went in, and its turn asks.
    if (waited.dialog) return { result: 'typed' };
    // Still exactly our text after VERIFY_MS, and no one could type meanwhile: the agent let
    // the Enter go (Claude Code now and then drops one that follows a paste, about once in
    // 30 sends of mixed Unicode, 2026-12-04). One more Enter submits this text and nothing else.
    if (waited.last && matchOf(waited.last, text) === 'ours' && !covered(waited.last, text)) {
      const again = await enterOnto(d, tmuxId, text, waited.last);
      if (again !== 'pressed') return again;
      const twice = await afterEnter(d, text);
      if (twice.tookDialog) return { result: 'not_submitted', left: twice.tookDialog.reading.draft ?? text, dialog: true };
      if (twice.dialog) return { result: 'typed' };
    }
  } catch {
    return entered ? { result: 'typed', closed: true } : { result: 'gone' };
  } finally {
    await inputOn();
  }
  const after = await until(d, (p) => matchOf(p, text) !== 'ours', SUBMIT_MS);
  // Gone after our Enter went into a box that held exactly our text: the agent took it.
  if (!after) return { result: 'typed', closed: true };
  return matchOf(after, text) === 'ours' ? { result: 'not_submitted', left: after.reading.draft ?? text } : { result: 'typed' };
}

/**
 * What became of an Enter pressed onto a box that held exactly our text, within `VERIFY_MS`:
 * the box shows something else (`last`), or still our text (`last`: the Enter let go), or a
 * dialog comes over the box (`dialog`). That dialog is the turn the text started asking at
 * once, or one the agent opened just as the Enter reached it, drawn only after the guard's
 * check: then the Enter was its answer. An agent draws a dialog's answer at once, so that
 * dialog goes and the box shows our text again (`tookDialog`). A dialog answered and gone
 * between two reads is not seen; the turn its answer let go on is: a turn running while the
 * box still holds our text was not started by it (an agent empties its box as it takes the
 * text), so with our text still there at the end the Enter answered something (`tookDialog`;
 * pressing Enter again would fold the text into that turn). A screen that cannot be read
 * (caught between its clear and its redraw) never ends the wait, nor does any other screen
 * after a dialog (one caught mid-redraw reads as an empty box); a dialog still there at
 * `VERIFY_MS`, or gone with our text not back, did not take the Enter.
 */
async function afterEnter(d: TypistDeps, text: string): Promise<{ last: PaneNow | null; dialog: boolean; tookDialog?: PaneNow }> {
  let dialog = false;
  let turnOverOurs = false;
  const last = await until(d, (p) => {
    if (covered(p, text)) {
      dialog = true;
      return false;
    }
    // A screen caught between its clear and its redraw tells nothing of where the Enter went.
    if (p.reading.state === 'unknown') return false;
    const ours = matchOf(p, text) === 'ours';
    if (ours && p.reading.state === 'working') turnOverOurs = true;
    return dialog ? ours : !ours;
  });
  if ((dialog || turnOverOurs) && last && !covered(last, text) && matchOf(last, text) === 'ours') return { last, dialog, tookDialog: last };
  return { last, dialog };
}

/**
 * A dialog (or the agent's own ask) came over the box: nothing may be pressed now. A menu the
 * text itself opened under the box (Claude Code's list of `/` commands) leaves the box showing.
 */
const covered = (p: PaneNow, text: string): boolean => (p.reading.dialog !== null || p.reading.state === 'blocked') && matchOf(p, text) === 'empty';

/**
 * The text as one bracketed paste, from a file through `load-buffer`, with the pane's input
 * switched off in the same batch (a blind pane: pasted and submitted at once).
 */
async function paste(d: TypistDeps, tmuxId: string, text: string, blind: boolean): Promise<'pasted' | TypeResult> {
  const name = `collie-${randomBytes(6).toString('hex')}`;
  const file = join(d.bufferDir, name);
  const cmd = ['paste-buffer', '-p', '-d', '-b', name, '-t', tmuxId];
  // The paste's file not written (the state disk full): nothing typed.
  if (!(await writeFile(file, text, { mode: 0o600 }).then(() => true, () => false))) {
    await rm(file, { force: true }).catch(() => undefined);
    return { result: 'unsaved' };
  }
  try {
    // load-buffer expands formats in its path (the state dir's name is the user's to choose).
    await d.command(['load-buffer', '-b', name, formatLiteral(file)]);
    if (blind) {
      await d.commands([cmd, ['send-keys', '-t', tmuxId, 'Enter']]);
      return { result: 'typed' };
    }
    await d.commands([cmd, ...inputOffCommands(tmuxId)]);
    return 'pasted';
  } catch {
    return { result: 'gone' };
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * Enter onto the screen `seen` showed, its box holding exactly the text: input on, Enter, input
 * off, as one batch behind the Enter guard (`enter-guard.ts`), so no one's keys come with the
 * Enter and it never lands on a screen that changed since. A changed screen is read again:
 * still our text alone, the Enter is tried on the new screen (until `VERIFY_MS`); a dialog
 * over the box is `held`; anything else is what the box now shows. Throws when the pane is gone.
 */
async function enterOnto(d: TypistDeps, tmuxId: string, text: string, seen: PaneNow): Promise<'pressed' | TypeResult> {
  const deadline = Date.now() + VERIFY_MS;
  let screen = seen;
  for (;;) {
    try {
      await d.commands([screenGuard(tmuxId, screen.lines), ['select-pane', '-e', '-t', tmuxId], ['send-keys', '-t', tmuxId, 'Enter'], ['select-pane', '-d', '-t', tmuxId]]);
      return 'pressed';
    } catch (err) {
      if (!screenChanged(err)) throw err;
    }
    const now = await d.readNow();
    if (!now) return { result: 'gone' };
    if (covered(now, text)) return { result: 'held' };
    const m = matchOf(now, text);
    if (m === 'empty') return { result: 'not_arrived' };
    if (m !== 'ours') return { result: 'mixed', left: now.reading.draft, restored: false };
    if (Date.now() > deadline) return { result: 'not_submitted', left: now.reading.draft ?? text };
    screen = now;
  }
}

/**
 * The box holds our paste and keys someone else typed: Backspace our text out (the cursor
 * stands right after the paste; one Backspace per grapheme), with input still off so their
 * keys are not touched, and check the box then holds only theirs.
 */
async function takeOursOut(d: TypistDeps, tmuxId: string, text: string, seen: PaneNow): Promise<TypeResult> {
  const draft = seen.reading.draft ?? '';
  const leftIfMixed = { result: 'mixed' as const, left: draft, restored: false };
  if (matchOf(seen, text) !== 'ours_and_more') return leftIfMixed;
  const theirs = withoutOurs(draft, text);
  const placeholder = AGENTS[seen.harness].pastePlaceholder;
  const presses = placeholder && !boxForm(draft).includes(boxForm(text)) ? 1 : graphemes(text);
  await d.commands([['select-pane', '-e', '-t', tmuxId], ['send-keys', '-N', String(presses), '-t', tmuxId, 'BSpace'], ['select-pane', '-d', '-t', tmuxId]]);
  const after = await until(d, (p) => boxForm(p.reading.draft ?? '') === theirs);
  if (!after) return { result: 'gone' };
  const now = after.reading.draft;
  if (boxForm(now ?? '') === theirs) return { result: 'mixed', left: now, restored: true };
  return { result: 'mixed', left: now, restored: false };
}

/**
 * Between two keys of one press: through a control-mode client, back-to-back `send-keys`
 * reach the pane well under a millisecond apart, and an agent that reads them in one chunk
 * takes `1`, `3`, Tab as typed text or one unknown key (seen: a multi-select's ticks lost
 * while its Tab got through, 2026-12-02).
 */
export const KEY_GAP_MS = 50;
/**
 * How long a key may take to be drawn before the next one goes anyway. A loaded machine
 * kept the agent from reading a tick before the next one came 50 ms later, and it took both
 * as one input (ticks lost, seen 2026-12-04); a key that draws nothing costs this wait.
 */
export const KEY_DRAW_MS = 500;

/**
 * Press tmux keys one at a time, apart: sent together, agents read them as one input. Each
 * key but the last waits for the agent to draw something (`nextOutput`) before the next;
 * with `drawnAfterLast` the last one too, so whatever reads the pane next sees its effect.
 */
export async function pressKeys(d: Pick<TypistDeps, 'command' | 'nextOutput'>, tmuxId: string, keys: readonly string[], drawnAfterLast = false): Promise<boolean> {
  try {
    for (const [i, k] of keys.entries()) {
      if (i > 0) await new Promise((r) => setTimeout(r, KEY_GAP_MS));
      const drawn = i < keys.length - 1 || drawnAfterLast ? d.nextOutput?.(tmuxId, KEY_DRAW_MS) : undefined;
      await d.command(['send-keys', '-t', tmuxId, k]);
      await drawn;
    }
    return true;
  } catch {
    return false;
  }
}
