/**
 * The zod-free part of walky talky's wire: limits, and the words the CLI and the phone show.
 * `collie walky` imports only this (`@collie/protocol/walky-words`), so an agent's call does
 * not load the schema library before it reaches the socket.
 */
import type { BroadcastLine, WalkyAnswer, WalkyMessage, WalkyState, WalkyTarget, WalkyVerified } from './walky';

export { MESSAGE_ID, WALKY_MAX_BODY, WALKY_WAIT_MS } from './walky-limits';
/** A request line longer than this is answered `too_large` without being parsed. */
export const WALKY_MAX_LINE = 64 * 1024;

/** The receipt's state in words, as the CLI and the phone show it. */
export function walkyWords(state: WalkyState, reason: string | null): string {
  switch (state) {
    case 'accepted':
      // A member waiting for its lead's word: "queued (outcome known on the lead)".
      return `queued${reason ? ` (${reason})` : ''}`;
    case 'delivered':
      return 'typed into the pane';
    case 'inbox-only':
      return `waiting in the inbox, not typed${reason ? `: ${reason}` : ''}`;
    case 'refused':
      return `not sent${reason ? `: ${reason}` : ''}`;
    case 'unknown':
      return `may have arrived, will not be sent again${reason ? ` (${reason})` : ''}`;
  }
}

/** How this machine knew the sender, in words. */
export function verifiedWords(verified: WalkyVerified, member?: string): string {
  switch (verified) {
    case 'origin':
      return `signed by ${member ?? 'its machine'}`;
    case 'lead':
      return 'relayed by the lead';
    case 'local':
      return 'this machine';
    case 'none':
      return 'not verified';
  }
}

/** A message whose write failed (the state disk full): refused before it is typed, or left in the inbox when its send could not be written. */
const REFUSAL_NOT_SAVED = 'could not be saved on this machine';

/** The refusal reasons the page names, word for word. */
export const REFUSAL = {
  notInPane: 'run this inside a pane, or send from the phone',
  ownPane: 'that is your own pane',
  replaced: 'pane replaced',
  off: 'off',
  tooLong: 'body over 4,000 characters',
  empty: 'empty body',
  shell: 'not an agent pane',
  noPane: 'no such pane',
  badAddress: 'not an address',
  broadcast: 'only the operator may broadcast',
  otherMember: 'no crew on this machine',
  operatorReply: 'a message from an operator has no pane to reply to',
  inboxFull: 'inbox full',
  /** Its first write failed (the state disk full): nothing typed or passed on, since the receipt comes first. */
  notSaved: REFUSAL_NOT_SAVED,
  /** Crew (walky across machines). */
  stale: 'stale',
  olderMember: 'older member',
  olderLead: 'older lead',
  badSignature: 'bad signature',
  unreachable: 'member unreachable',
  /** A broadcast on a member whose lead did not answer which panes the other machines have. */
  leadUnreachable: 'lead unreachable',
  /** A broadcast to a member that shows no agent pane (none reported yet, or shells only). */
  noAgents: 'no agent panes',
  /** Not a message's state: a request whose claimed pid did not open its connection (counted only). */
  notProved: 'caller not proved',
} as const;

/** Refusals that speak for a whole machine, not one pane: a broadcast shows them once, as `<member>/all`. */
const MACHINE_REFUSALS: readonly string[] = [REFUSAL.off, REFUSAL.olderMember, REFUSAL.olderLead, REFUSAL.unreachable, REFUSAL.leadUnreachable, REFUSAL.noAgents, REFUSAL.stale, REFUSAL.badSignature, REFUSAL.tooLong, REFUSAL.empty];

/** A broadcast's target that stands for a whole machine (`<member>/all`): a refusal for all its panes, or for a machine with none to name. */
export function wholeMachine(member: string): WalkyTarget {
  const all = `${member}/all`;
  return { paneId: all, pane: all, address: all, token: '', harness: 'shell', label: member, member };
}

/**
 * A broadcast's status, one line per pane, in address order. A machine whose every pane
 * refused it for the same machine-wide reason (walky talky off, an older member, unreachable,
 * a member's error answer) has one line, `<member>/all`. `here` is this machine's own member
 * part (the crew id on a lead, `local` with no crew).
 */
export function broadcastLines(messages: readonly WalkyMessage[], here: string): BroadcastLine[] {
  const byMachine = new Map<string, WalkyMessage[]>();
  for (const m of messages) {
    const machine = m.to?.member ?? here;
    byMachine.set(machine, [...(byMachine.get(machine) ?? []), m]);
  }
  const lines: BroadcastLine[] = [];
  for (const [machine, ms] of byMachine) {
    const first = ms[0]!;
    const whole = first.state === 'refused' && first.reason !== null && ms.every((m) => m.state === 'refused' && m.reason === first.reason) && (MACHINE_REFUSALS.includes(first.reason) || first.reason.startsWith(`${machine} answered `));
    if (whole) {
      lines.push({ pane: `${machine}/all`, ...(machine !== here ? { member: machine } : {}), state: 'refused', reason: first.reason, verified: first.verified, ...(first.from.member ? { by: first.from.member } : {}) });
      continue;
    }
    for (const m of ms) lines.push({ pane: m.to?.pane ?? m.asked, id: m.id, ...(m.to?.member ? { member: m.to.member } : {}), state: m.state, reason: m.reason, verified: m.verified, ...(m.from.member ? { by: m.from.member } : {}) });
  }
  return lines.sort((a, b) => a.pane.localeCompare(b.pane, 'en', { numeric: true }));
}

/** Why a message waits in the inbox instead of being typed. */
/** A crew member's message the lead has, before its outcome comes back; and a machine that took too long. */
export const CREW_REASON = { onLead: 'outcome known on the lead', slow: 'member slow', leadGone: 'lead unreachable' } as const;

export const INBOX_REASON = { draft: 'draft present', busy: 'pane busy', gone: 'pane gone', notSaved: REFUSAL_NOT_SAVED } as const;

/**
 * The CLI's check of an answer line, without the schema library: the discriminant and every
 * field the CLI reads or prints, with their types. The bridge builds each answer from the zod
 * schemas (`WalkyAnswer`); a test holds this check to accept what the schema accepts.
 */
export function isWalkyAnswer(v: unknown): v is WalkyAnswer {
  if (!isObj(v) || typeof v['verb'] !== 'string') return false;
  switch (v['verb']) {
    case 'error': {
      const e = v['error'];
      return v['ok'] === false && isObj(e) && str(e, 'code') && str(e, 'message');
    }
    case 'who':
      return v['ok'] === true && typeof v['machine'] === 'string' && (v['you'] === null || typeof v['you'] === 'string') && optStr(v, 'lead') && Array.isArray(v['panes']) && v['panes'].every(isRow);
    case 'send':
      return v['ok'] === true && isMessage(v['message']);
    case 'status': {
      const b = v['broadcast'];
      if (isObj(b)) return v['ok'] === true && str(b, 'id') && Array.isArray(b['panes']) && b['panes'].every(isLine);
      return v['ok'] === true && isMessage(v['message']);
    }
    case 'inbox':
      return v['ok'] === true && Array.isArray(v['messages']) && v['messages'].every(isMessage);
    default:
      return false;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, k: string) => typeof o[k] === 'string';
const optStr = (o: Obj, k: string) => o[k] === undefined || typeof o[k] === 'string';
const STATES: readonly string[] = ['accepted', 'delivered', 'inbox-only', 'refused', 'unknown'];
const VERIFIED: readonly string[] = ['origin', 'lead', 'local', 'none'];

function isLine(l: unknown): boolean {
  return isObj(l) && str(l, 'pane') && STATES.includes(String(l['state'])) && VERIFIED.includes(String(l['verified'])) && (l['reason'] === null || typeof l['reason'] === 'string') && optStr(l, 'member') && optStr(l, 'by') && optStr(l, 'id');
}

function isRow(r: unknown): boolean {
  return isObj(r) && str(r, 'address') && str(r, 'machine') && str(r, 'harness') && str(r, 'label') && str(r, 'state') && typeof r['you'] === 'boolean';
}

function isMessage(m: unknown): boolean {
  if (!isObj(m) || m['v'] !== 1 || !str(m, 'id') || typeof m['at'] !== 'number' || !str(m, 'asked') || !str(m, 'body')) return false;
  if (!STATES.includes(String(m['state'])) || !VERIFIED.includes(String(m['verified'])) || typeof m['read'] !== 'boolean') return false;
  if (!(m['replyTo'] === null || typeof m['replyTo'] === 'string') || !(m['reason'] === null || typeof m['reason'] === 'string')) return false;
  const f = m['from'];
  if (!isObj(f) || (f['kind'] !== 'agent' && f['kind'] !== 'operator') || !['address', 'label', 'harness', 'device', 'member'].every((k) => optStr(f, k))) return false;
  const t = m['to'];
  return t === null || (isObj(t) && ['paneId', 'pane', 'address', 'token', 'harness', 'label'].every((k) => str(t, k)));
}
