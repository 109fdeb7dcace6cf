import type { Pane, WalkyMessage } from '@collie/protocol';
import { idsIn } from './ids';

/**
 * A `collie walky …` call in a command: at the start of a command (the line's, or after `;`,
 * `&&`, `|`, `(`, `$(` or a backtick), after any `NAME=value` assignments such as
 * `COLLIE_INSTANCE=x`, the binary under any path the skill pins (`collie`,
 * `…/bin/collie.cjs`, a quoted path with spaces); then the verb and the rest of that command.
 */
const BIN = `(?:'[^']*/collie(?:\\.cjs|\\.mjs)?'|"[^"]*/collie(?:\\.cjs|\\.mjs)?"|(?:[^\\s;&|()\`'"]*/)?collie(?:\\.cjs|\\.mjs)?)`;
const WALKY_CALL = new RegExp(`(?:^|[;&|(\`\\n]|\\$\\()\\s*(?:[A-Za-z_][A-Za-z0-9_]*=\\S*\\s+)*${BIN}\\s+walky(?:\\s+(who|send|reply|inbox|status)\\b([^\\n;&|]*))?`);

/** What a tool card that ran `collie walky` shows beside its output, from the log only. */
export interface WalkyToolView {
  verb: 'who' | 'send' | 'reply' | 'inbox' | 'status' | null;
  /** After `send` or `reply`: the message this pane sent, as the log holds it (its receipt state). */
  sent: WalkyMessage | null;
  /** After `inbox <id>`: that message, when the log says it reached this pane. */
  read: WalkyMessage | null;
}

/**
 * The walky side of a tool card, or null when its command runs no `collie walky`. What the
 * command printed only points at an id; the message and its state come from the log, and
 * only a message this pane sent (its token) counts as the one a `send` or `reply` made, so a
 * printed id of another message claims nothing. Pure.
 */
export function walkyTool(input: string, output: string, messages: readonly WalkyMessage[], pane: Pick<Pane, 'id' | 'token'>): WalkyToolView | null {
  const call = WALKY_CALL.exec(input);
  if (!call) return null;
  const verb = (call[1] ?? null) as WalkyToolView['verb'];
  const args = call[2] ?? '';
  const byId = new Map(messages.map((m) => [m.id, m]));
  const none = { verb, sent: null, read: null };
  if (verb === 'send' || verb === 'reply') {
    const answers = verb === 'reply' ? (idsIn(args)[0] ?? null) : null;
    const sent = idsIn(output)
      .map((id) => byId.get(id))
      .find((m) => m !== undefined && m.from.paneId === pane.id && m.from.token === pane.token && m.replyTo === answers);
    return { ...none, sent: sent ?? null };
  }
  if (verb === 'inbox') {
    const id = idsIn(args)[0];
    const m = id === undefined ? undefined : byId.get(id);
    return { ...none, read: m && m.state !== 'refused' && m.to?.paneId === pane.id && m.to.token === pane.token ? m : null };
  }
  return none;
}
