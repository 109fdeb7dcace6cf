import type { Harness } from '@collie/protocol';
import type { StyledLine } from './screen/styled-line';

/**
 * Words and shapes each agent prints and the others do not, tested row by row (escapes
 * stripped). Checked in order; the first harness with a hit wins. They come from the captured
 * screens in the fixture corpus (Claude Code 2.1, oh-my-pi 17) and from the other agents'
 * published TUI sources.
 */
const SIGNS: ReadonlyArray<readonly [Exclude<Harness, 'shell'>, readonly RegExp[]]> = [
  // Gemini CLI 0.61's trust dialog asks in Claude's words; its explanation names it.
  ['gemini', [/\bTrusting a folder allows Gemini CLI\b/u]],
  [
    'claude',
    [
      /\bClaude Code v\d/u, // the welcome banner `╭─── Claude Code v2.1.201 ───╮`
      /^❯\u00a0/u, // the live prompt: `❯` then a no-break space (history rows use a plain space)
      /\bClaude has written up a plan\b|\bHere is Claude's plan:/u,
      /\btell Claude what to (?:do|change)\b/iu,
      /\bClaude Code'?ll be able to read, edit, and execute files here\b/u,
      /\bDo you trust the files in this folder\?/u,
      /\bSwitch between Claude models\b/u,
      /\bUser answered Claude's questions:/u,
      /^\s*(?:❯\s*)?\d+\.\s+Chat about this\s*$/u, // AskUserQuestion's last option
      /^←\s+[☐☒].*✔ Submit\s+→$/u, // AskUserQuestion's tab bar
      /\bEsc to cancel · Tab to amend\b/u,
      /⏵⏵ .*\(shift\+tab to cycle\)|⏸ (?:plan|manual) mode on\b/u,
    ],
  ],
  [
    'omp',
    [
      /\bomp v\d+\.\d+/u, // the welcome banner `╭─── omp v17.2.12 ───╮`
      /^[╭│][─\s]*π > /u, // the status line on the composer's top edge (and its preview)
      /^\s?π > .*▶/u, // omp 18: the status line as a bare row over the composer
      /\bWorking… ⟦esc⟧/u,
      /\bEnter select · n note · ↑\/↓ move\b|\bSpace\/Enter toggle · n note\b/u,
      /\bEnter assign roles · ↑\/↓ providers\b/u,
      /\bEnter select · Tab all projects · Esc cancel\b/u,
      /\bEnter\/Space to change · Tab to jump sections\b/u,
    ],
  ],
  [
    'codex',
    [
      /\bOpenAI Codex\b/u,
      /\bAsk Codex to do anything\b/u,
      /\btell Codex what to do differently\b/u,
      /\ballow Codex to work in this folder\b/iu,
      /\bTrust this folder\? Codex can read\b/u, // 0.171's folder-trust dialog
      /^\s*•\s*Working \(\d.*esc to interrupt\)/u,
      /^\s*\? for shortcuts\s+\d+% context left\b/u,
    ],
  ],
  [
    'gemini',
    [
      /\bType your message or @path\/to\/file\b/u,
      /\(esc to cancel, \d/u,
      /\bGemini CLI\b/u,
      /\bUsing:? \d+ GEMINI\.md files?\b/u,
      /\bNo, suggest changes \(esc\)/u,
      /^\s*workspace \(\/directory\)\s+sandbox\s+\/model\s*$/u, // 0.61's footer headings
    ],
  ],
  [
    'opencode',
    [
      /\bctrl\+p commands\b/u,
      /\besc (?:again to )?interrupt\b/u,
      /\bopencode v?\d+\.\d+\.\d+/u,
      /⇆ select\s+enter confirm\b/u, // the permission prompt's hint row (1.18)
      /\benter submit\s+esc dismiss\b/u, // the question tool's hint row (1.18)
    ],
  ],
  [
    'pi',
    [
      /^\s*pi v\d+\.\d+/u,
      /\bWorking\.\.\. \(esc to interrupt\)/iu,
      /(?:^|\s)\d{1,3}\.\d%\/\d+(?:\.\d)?[kM](?: \(auto\))?(?:\s|$)/u, // footer context use
    ],
  ],
  [
    'aider',
    [/^Aider v\d+\.\d+/u, /^Main model: /u, /^Repo-map: /u, /\(Y\)es\/\(N\)o\b/u, /^Tokens: [\d.]+[kM]? sent\b/u],
  ],
];

/** The agent whose on-screen signs appear in `lines`, or null when none do. */
export function detectHarness(lines: readonly StyledLine[]): Harness | null {
  for (const [harness, signs] of SIGNS) {
    for (const line of lines) {
      if (signs.some((re) => re.test(line.text))) return harness;
    }
  }
  return null;
}
