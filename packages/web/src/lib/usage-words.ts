import { momentWords, type Harness, type Pane, type PaneUsage } from '@collie/protocol';

/** Context share from which a dashboard row shows its gauge. */
export const GAUGE_FROM = 0.6;

/** A model in a few letters: `claude-opus-4-5-20251101` → `opus-4.5`; others as recorded, without a date suffix. */
export function shortModel(model: string): string {
  let m = model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
  m = m.replace(/-(\d+)-(\d+)$/, '-$1.$2');
  return m;
}

/** The context in use as a share of the window (0..1), where both are recorded. */
export function contextShare(u: PaneUsage | undefined): number | null {
  if (!u || u.contextTokens === undefined || !u.contextWindow) return null;
  return Math.min(1, u.contextTokens / u.contextWindow);
}

/** Tokens in words: `950`, `85 k`, `1.2 M`. */
export function tokenWords(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${n < 10_000 ? (n / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(n / 1000)} k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')} M`;
}

/** The pane header's usage line: `opus-4.5 · context 72 % · 1.2 M tokens · $3.10` (what is known). */
export function usageLine(u: PaneUsage): string {
  const share = contextShare(u);
  return [
    u.model !== undefined ? shortModel(u.model) : null,
    share !== null ? `context ${Math.round(share * 100)} %` : null,
    u.sessionTokens !== undefined ? `${tokenWords(u.sessionTokens)} tokens` : null,
    u.costUsd !== undefined ? `$${u.costUsd.toFixed(2)}` : null,
  ]
    .filter((x) => x !== null)
    .join(' · ');
}

const RECORDS: Partial<Record<Harness, string>> = {
  claude: 'Claude Code’s transcript',
  codex: 'Codex’s session log',
  gemini: 'Gemini CLI’s chat file',
  opencode: 'OpenCode’s database',
  pi: 'pi’s session file',
};

/** Where the figures come from, in words (the pane's details say it). */
export function usageFrom(u: PaneUsage, harness: Harness): string {
  const record = RECORDS[harness] ?? 'the agent’s own record';
  const parts = [`Model and tokens from ${u.source === 'screen' ? 'the agent’s screen' : record}${u.model ? ` (${u.model})` : ''}.`];
  if (u.contextWindow) parts.push(u.windowFrom === 'table' ? `The ${tokenWords(u.contextWindow)} window is from Collie’s table of known models: the agent records none.` : `The ${tokenWords(u.contextWindow)} window is as the agent recorded it.`);
  if (u.limit) parts.push(`The usage limit from ${u.limit.source === 'screen' ? 'the agent’s screen' : record}.`);
  return parts.join(' ');
}

/** The pane is at its usage limit: it cannot work until the reset. */
export function limitReached(pane: Pane): boolean {
  return pane.usage?.limit?.state === 'reached';
}

/** `Limit reached · resets 15:00` (or without the time where none is known). */
export function limitWords(pane: Pane, now: number): string {
  const at = pane.usage?.limit?.resetsAt;
  const when = at ? momentWords(at, now) : '';
  return when ? `Limit reached · resets ${when}` : 'Limit reached';
}
