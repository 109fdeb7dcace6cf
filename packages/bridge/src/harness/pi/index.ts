import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { joinRows } from '../screen/join-rows';
import { findRuledBox } from '../screen/rules';
import { bottomTexts, typedText, type StyledLine } from '../screen/styled-line';

/**
 * pi (`pi-coding-agent`). Its editor is drawn between two full-width `─` rules with the footer
 * under it: the working directory, then token stats and context use (`↑1.2k ↓3.4k $0.012
 * 12.3%/200k (auto)`), then extension statuses. While a turn runs a braille spinner and
 * `Working... (esc to interrupt)` sit above the editor.
 */
const WORKING = [/\besc to interrupt\b/iu, /^\s*[\u2801-\u28ff]\s+\S.*(?:…|\.\.\.)/u];
/** Footer rows under the editor: directory, stats, and at most one row of statuses. */
const FOOTER_ROWS = 4;
const ACTIVITY_ROWS = 30;

export function readPi(lines: readonly StyledLine[]): ScreenReading {
  const editor = findRuledBox(lines, { firstRow: () => true, maxBelow: FOOTER_ROWS, maxInner: 30 });
  const working = bottomTexts(lines, ACTIVITY_ROWS).some((r) => WORKING.some((re) => re.test(r)));
  let state: ScreenState;
  if (working) state = 'working';
  else if (editor) state = 'idle';
  else state = 'unknown';
  let draft: string | null = null;
  if (editor) {
    const rows = editor.inner.map((line) => {
      const text = typedText(line);
      const column = text.length - text.trimStart().length;
      return { text: text.trimStart(), column };
    });
    const text = joinRows(rows, editor.width);
    draft = text === '' ? null : text;
  }
  return { harness: 'pi', state, dialog: null, draft };
}

/** pi's reader in the one shape every agent has (`harness/agents.ts`). */
export const piAgent: AgentReader = {
  read: readPi,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
