import { verifiedWords, walkyWords, type Pane, type WalkyMessage } from '@collie/protocol';

/** One list, newest first: each id once, the copy updated last winning. */
export function mergeMessages(base: readonly WalkyMessage[], newer: readonly WalkyMessage[]): WalkyMessage[] {
  const byId = new Map<string, WalkyMessage>();
  for (const m of [...base, ...newer]) {
    const had = byId.get(m.id);
    if (!had || m.updatedAt >= had.updatedAt) byId.set(m.id, m);
  }
  return [...byId.values()].sort((a, b) => b.at - a.at || b.id.localeCompare(a.id));
}

/** A pane's messages: those that reached it and those it sent (a refused one reached nothing). */
export function paneMessages(all: readonly WalkyMessage[], pane: Pick<Pane, 'id' | 'token'>): WalkyMessage[] {
  return all.filter((m) => (m.to?.paneId === pane.id && m.to.token === pane.token && m.state !== 'refused') || m.from.paneId === pane.id);
}

/** Whether the pane received `m` (else it sent it). */
export const received = (m: WalkyMessage, paneId: string): boolean => m.to?.paneId === paneId && m.from.paneId !== paneId;

/** The sender's label as a card's title names it: an agent's label, or the operator's device. */
export function senderLabel(m: WalkyMessage): string {
  if (m.from.kind === 'operator') return m.from.device ?? 'operator';
  return m.from.label || m.from.address || 'an agent';
}

/** "typed into the pane", "not sent: pane replaced", … */
export const stateWords = (m: WalkyMessage): string => walkyWords(m.state, m.reason);

/** "this machine", "signed by …", "relayed by the lead", "not verified". */
export const knownWords = (m: WalkyMessage): string => verifiedWords(m.verified, m.from.member);

/** The receipt line of a sent message: "Message to collie/%7: typed into the pane". */
/** The pane as the receipt names it, without its token (a refused message has only the address asked). */
export const receiptLine = (m: WalkyMessage): string => `Message to ${m.to?.pane ?? m.asked.replace(/#[a-z0-9]{4}$/, '')}: ${stateWords(m)}`;

/**
 * A broadcast's receipt line, naming the pane by its label as the dashboard does ("shop#main:
 * typed into the pane", "api#fix on build-box: …"); a refused message has only the address asked.
 */
export const recipientLine = (m: WalkyMessage): string => {
  const who = m.to ? `${m.to.label || m.to.pane}${m.to.member ? ` on ${m.to.member}` : ''}` : m.asked.replace(/#[a-z0-9]{4}$/, '');
  return `${who}: ${stateWords(m)}`;
};
