import type { Harness } from '@collie/protocol';
import { detectHarnessFromScreen, readScreen } from './read-screen';

/**
 * The line `collie screen <file>` prints: the reading of one captured screen as JSON with the
 * keys `harness`, `state`, `dialog`, `draft` in that order (no trailing newline). The harness
 * is the one given, else the one detected on screen, else `shell`.
 *
 * @example
 * screenCommand(capture) // '{"harness":"claude","state":"idle","dialog":null,"draft":null}'
 */
export function screenCommand(text: string, harness?: Harness): string {
  const chosen = harness ?? detectHarnessFromScreen(text) ?? 'shell';
  const reading = readScreen(chosen, text);
  return JSON.stringify({
    harness: reading.harness,
    state: reading.state,
    dialog: reading.dialog,
    draft: reading.draft,
  });
}
