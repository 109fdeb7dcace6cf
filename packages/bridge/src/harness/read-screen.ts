import type { Harness, ScreenReading } from '@collie/protocol';
import { AGENTS } from './agents';
import { detectHarness } from './detect';
import { parseScreen } from './screen/parse-screen';

/**
 * Read one captured screen (capture-pane -e -p text; \n or \r\n line ends) as drawn by `harness`.
 * Pure and total: any string yields a reading, never a throw.
 *
 * @example
 * readScreen('claude', capture) // { harness: 'claude', state: 'idle', dialog: null, draft: 'fix the tests' }
 */
export function readScreen(harness: Harness, screen: string): ScreenReading {
  const reading = AGENTS[harness].read(parseScreen(screen));
  // A known agent's screen that none of its reader's shapes matched: say so, loudly.
  if (harness === 'shell' || reading.state !== 'unknown' || reading.reason !== undefined) return reading;
  return { ...reading, reason: `Collie cannot read this ${AGENT_NAMES[harness]} screen` };
}

/** Each agent by the name its users know it by, for the words above. */
const AGENT_NAMES: Readonly<Record<Exclude<Harness, 'shell'>, string>> = {
  claude: 'Claude Code',
  codex: 'Codex',
  opencode: 'OpenCode',
  gemini: 'Gemini CLI',
  pi: 'pi',
  omp: 'omp',
  aider: 'Aider',
};

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
