import { broadcastLines, type Pane, type WalkyAnswer, type WalkyMessage, type WhoRow } from '@collie/protocol';
import { errorAnswer } from './parse';
import type { WalkyLog } from './walky-log';
import type { InboxHost } from './service-deps';

/** `inbox --all` prints this many. */
export const INBOX_ALL = 50;

/** `who`: on a lead every machine's agent panes; on a member its own, then the line that points at the lead. */
export async function whoAnswer(s: InboxHost, me: Pane | null): Promise<WalkyAnswer> {
  const self = s.crewSelf();
  // MACHINE: the crew's name for the machine (what tells a crew's rows apart), the host name with no crew.
  const machineOf = (p: Pane) => p.member?.name ?? self?.name ?? p.machine;
  const panes: WhoRow[] = [...s.d.hub.panes.values()]
    .filter((p) => p.harness !== 'shell' && (!p.member || self?.role === 'lead'))
    .map((p) => ({ address: s.shown(p.address), machine: machineOf(p), harness: p.harness, label: p.label, state: p.member && !p.member.reachable ? ('unreachable' as const) : p.state, you: p.id === me?.id }))
    .sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
  return { ok: true, verb: 'who', machine: self?.name ?? s.d.hub.machine, you: me ? s.shown(me.address) : null, panes, ...(self?.role === 'member' ? { lead: self.lead } : {}) };
}

/** `inbox`: a pane's unread messages (read from now on unless `keep`), one by id, or the last INBOX_ALL. */
export async function inboxAnswer(s: InboxHost, me: Pane | null, id: string | undefined, all: boolean, keep: boolean): Promise<WalkyAnswer> {
  const reached = (m: WalkyMessage) => m.state !== 'refused' && m.to !== null;
  const mine = (m: WalkyMessage) => reached(m) && me !== null && m.to?.paneId === me.id && m.to.token === me.token;
  if (id !== undefined) {
    const m = s.d.log.get(id);
    if (me && (!m || !mine(m))) return errorAnswer('unknown_id', `no message ${id} for this pane`);
    if (!m || !reached(m)) return errorAnswer('unknown_id', `no message ${id} on this machine`);
    return { ok: true, verb: 'inbox', messages: [me ? await markRead(s, m) : m] };
  }
  if (all) return { ok: true, verb: 'inbox', messages: s.d.log.all().filter(me ? mine : reached).slice(-INBOX_ALL) };
  if (!me) return errorAnswer('not_in_pane', 'run this inside a pane, or list every message with collie walky inbox --all');
  const unread = s.d.log.all().filter((m) => mine(m) && !m.read);
  return { ok: true, verb: 'inbox', messages: keep ? unread : await Promise.all(unread.map((m) => markRead(s, m))) };
}

/** `status <id>`: one message's receipt, or a broadcast's lines (the CLI and the phone). */
export async function statusAnswer(s: InboxHost, id: string): Promise<WalkyAnswer> {
  const m = s.known(id);
  if (m) return { ok: true, verb: 'status', message: m };
  // A broadcast's id: every pane's line the log holds for it, a machine that refused it whole as one.
  const parts = s.d.log.all().filter((x) => x.broadcast === id);
  if (parts.length > 0) return { ok: true, verb: 'status', broadcast: { id, panes: broadcastLines(parts, s.crewSelf()?.prefix ?? 'local') } };
  return errorAnswer('unknown_id', `no record of ${id} on this machine`);
}

/** A message id seen before: its record, or what seen.json kept of it after the log dropped it. */
export function knownMessage(log: WalkyLog, id: string): WalkyMessage | undefined {
  const m = log.get(id);
  if (m) return m;
  const seen = log.seenEntry(id);
  if (!seen) return undefined;
  return { v: 1, id, at: seen.at, from: { kind: 'agent' }, to: null, asked: seen.pane ?? '', replyTo: null, body: '', state: seen.state, reason: seen.reason, verified: 'local', read: true, updatedAt: seen.at };
}

async function markRead(s: InboxHost, m: WalkyMessage): Promise<WalkyMessage> {
  if (m.read) return m;
  const read = { ...m, read: true, updatedAt: s.d.now() };
  await s.save(read);
  return read;
}
