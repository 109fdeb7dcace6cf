import type { Harness, ScreenReading } from '@collie/protocol';
import { readAider } from './aider/index';
import { readClaude } from './claude/index';
import { readCodex } from './codex/index';
import { detectHarness } from './detect';
import { readGemini } from './gemini/index';
import { readOmp } from './omp/index';
import { readOpencode } from './opencode/index';
import { readPi } from './pi/index';
import { parseScreen } from './screen/parse-screen';
import type { StyledLine } from './screen/styled-line';

const READERS: Record<Harness, (lines: readonly StyledLine[]) => ScreenReading> = {
  claude: readClaude,
  omp: readOmp,
  codex: readCodex,
  opencode: readOpencode,
  gemini: readGemini,
  pi: readPi,
  aider: readAider,
  // Anything that is not an agent: nothing to read, and nothing the bridge may assume.
  shell: () => ({ harness: 'shell', state: 'unknown', dialog: null, draft: null }),
};

/**
 * Read one captured screen (capture-pane -e -p text; \n or \r\n line ends) as drawn by `harness`.
 * Pure and total: any string yields a reading, never a throw.
 *
 * @example
 * readScreen('claude', capture) // { harness: 'claude', state: 'idle', dialog: null, draft: 'fix the tests' }
 */
export function readScreen(harness: Harness, screen: string): ScreenReading {
  return READERS[harness](parseScreen(screen));
}

/**
 * Guess the harness from the screen alone (for `collie screen <file>` and as a tie-breaker to
 * the process tree); null when nothing agent-like is on screen.
 *
 * @example
 * detectHarnessFromScreen(capture) // 'claude'
 */
export function detectHarnessFromScreen(screen: string): Harness | null {
  return detectHarness(parseScreen(screen));
}
