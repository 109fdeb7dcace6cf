import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PaneNow } from '../panes/pane-tracker';
import { AGENTS } from '../harness/agents';
import { arrived } from './sanitize';

export interface TypistDeps {
  /** Run a tmux command through the pane's server (control mode). */
  command(args: readonly string[]): Promise<string[]>;
  /** Read the pane now. */
  readNow(): Promise<PaneNow | null>;
  /** A 0700 directory for the paste buffers' files. */
  bufferDir: string;
}

export type TypeResult = 'typed' | 'not_arrived' | 'not_submitted' | 'gone';

/** How long typed text may take to show in the box, and the box to clear after Enter. */
export const VERIFY_MS = 3000;
const STEP_MS = 25;

async function until(d: TypistDeps, ok: (p: PaneNow) => boolean): Promise<PaneNow | null> {
  const deadline = Date.now() + VERIFY_MS;
  let last: PaneNow | null = null;
  for (;;) {
    last = await d.readNow();
    if (!last || ok(last) || Date.now() > deadline) return last;
    await new Promise((r) => setTimeout(r, STEP_MS));
  }
}

/**
 * Type `text` into a pane and submit it: as one bracketed paste (`paste-buffer -p`), so
 * the agent takes line breaks as text, not as Enter; then, unless blind, verify the box
 * holds it (or the agent's paste placeholder) before pressing Enter, and verify the box
 * emptied after. The text goes through a file and `load-buffer`, never through a command
 * line, so no byte of it is parsed by tmux.
 */
export async function typeAndSubmit(d: TypistDeps, tmuxId: string, text: string, blind: boolean): Promise<TypeResult> {
  const name = `collie-${randomBytes(6).toString('hex')}`;
  const file = join(d.bufferDir, name);
  await writeFile(file, text, { mode: 0o600 });
  try {
    await d.command(['load-buffer', '-b', name, file]);
    await d.command(['paste-buffer', '-p', '-d', '-b', name, '-t', tmuxId]);
  } catch {
    return 'gone';
  } finally {
    await rm(file, { force: true });
  }
  if (!blind) {
    const seen = await until(d, (p) => arrived(p.reading.draft, text, AGENTS[p.harness].pastePlaceholder));
    if (!seen) return 'gone';
    if (!arrived(seen.reading.draft, text, AGENTS[seen.harness].pastePlaceholder)) return seen.reading.draft === null ? 'not_arrived' : 'not_submitted';
    const settle = AGENTS[seen.harness].submitDelayMs ?? 0;
    if (settle > 0) await new Promise((r) => setTimeout(r, settle));
  }
  try {
    await d.command(['send-keys', '-t', tmuxId, 'Enter']);
  } catch {
    return 'gone';
  }
  if (blind) return 'typed';
  const after = await until(d, (p) => !arrived(p.reading.draft, text, AGENTS[p.harness].pastePlaceholder));
  if (!after) return 'gone';
  return after.reading.draft !== null && arrived(after.reading.draft, text, AGENTS[after.harness].pastePlaceholder) ? 'not_submitted' : 'typed';
}

/**
 * Between two keys of one press: through a control-mode client, back-to-back `send-keys`
 * reach the pane well under a millisecond apart, and an agent that reads them in one chunk
 * takes `1`, `3`, Tab as typed text or one unknown key (seen: a multi-select's ticks lost
 * while its Tab got through, 2026-12-02).
 */
export const KEY_GAP_MS = 50;

/** Press tmux keys one at a time, apart: sent together, agents read them as one input. */
export async function pressKeys(d: Pick<TypistDeps, 'command'>, tmuxId: string, keys: readonly string[]): Promise<boolean> {
  try {
    for (const [i, k] of keys.entries()) {
      if (i > 0) await new Promise((r) => setTimeout(r, KEY_GAP_MS));
      await d.command(['send-keys', '-t', tmuxId, k]);
    }
    return true;
  } catch {
    return false;
  }
}
