import type { ScreenReading, ScreenState } from '@collie/protocol';
import type { AgentReader } from '../agent';
import { ompKeys, readOmpCard } from './card';
import { bottomTexts, type StyledLine } from '../screen/styled-line';
import { findComposer, readComposerDraft } from './composer';
import { readOmpDialog } from './dialog';

/**
 * While a turn runs oh-my-pi draws a braille spinner and `Working… ⟦esc⟧` above the composer
 * (pi, which it forks, prints `Working... (esc to interrupt)`).
 */
const SPINNER = /^\s*[\u2801-\u28ff]\s+\S.*(?:…|\.\.\.)/u;
const INTERRUPT_HINT = /\besc to interrupt\b/iu;
/** omp 18: `⎋ Working…` above the composer (also under an open tool approval). */
const WORKING_18 = /^\s*⎋\s+Working…/u;
const ACTIVITY_ROWS = 30;

/**
 * Read an oh-my-pi (`omp`) screen: its composer box, the ask dialog, omp 18's tool approval, user-opened pickers
 * (models, settings, resume, the slash palette) and the working spinner.
 */
export function readOmp(lines: readonly StyledLine[]): ScreenReading {
  const composer = findComposer(lines);
  const dialog = readOmpDialog(lines, composer);
  const working = bottomTexts(lines, ACTIVITY_ROWS).some((t) => SPINNER.test(t) || INTERRUPT_HINT.test(t) || WORKING_18.test(t));
  let state: ScreenState;
  if (dialog !== null && dialog !== 'menu') state = 'blocked';
  else if (working) state = 'working';
  else if (composer || dialog === 'menu') state = 'idle';
  else state = 'unknown';
  return { harness: 'omp', state, dialog, draft: composer ? readComposerDraft(composer) : null };
}

/** oh-my-pi's reader in the one shape every agent has (`harness/agents.ts`). */
export const ompAgent: AgentReader = {
  read: readOmp,
  card: readOmpCard,
  keys: ompKeys,
  stopKey: 'Escape',
  pastePlaceholder: null,
};
