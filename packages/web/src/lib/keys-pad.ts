import type { KeyName } from '@collie/protocol';

/** One key on the pad: what it presses, what it shows, and what a screen reader says. */
export interface PadKey {
  readonly key: KeyName;
  readonly label: string;
  readonly name: string;
  /** Columns it spans on the pad's five-column grid. */
  readonly span?: number;
}

/**
 * The pad, row by row on a five-column grid: the keys a terminal agent's dialogs and menus
 * answer to, the digits that pick a numbered option, and Stop.
 */
export const PAD_KEYS: readonly PadKey[] = [
  { key: 'Escape', label: 'Esc', name: 'Escape' },
  { key: 'C-c', label: 'Ctrl-C', name: 'Control C' },
  { key: 'Tab', label: 'Tab', name: 'Tab' },
  { key: 'BTab', label: '⇧Tab', name: 'Shift Tab' },
  { key: 'BSpace', label: '⌫', name: 'Backspace' },
  { key: 'Left', label: '←', name: 'Left' },
  { key: 'Up', label: '↑', name: 'Up' },
  { key: 'Down', label: '↓', name: 'Down' },
  { key: 'Right', label: '→', name: 'Right' },
  { key: 'Space', label: 'Space', name: 'Space' },
  ...(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'] as const).map((digit) => ({ key: digit, label: digit, name: digit })),
  { key: 'Enter', label: 'Enter', name: 'Enter', span: 2 },
];

/** Stop stands apart: it ends the running turn with the agent's own key. */
export const STOP_KEY: PadKey = { key: 'Stop', label: 'Stop', name: 'Stop: end the running turn', span: 3 };

/** The label a key shows, for the pad's status line. */
export function padLabel(key: KeyName): string {
  return key === STOP_KEY.key ? STOP_KEY.label : (PAD_KEYS.find((k) => k.key === key)?.label ?? key);
}
