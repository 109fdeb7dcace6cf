/**
 * What a member sends up is masked again on the lead with the lead's own setting: a member
 * with COLLIE_REDACT=off must not put a secret on the lead's phone. Ids and the card's
 * signature pass untouched (an answer carries the signature back to the member).
 */
import type { Pane, SendReceipt } from '@collie/protocol';

type Mask = (text: string) => string;

export function maskPane(p: Pane, mask: Mask): Pane {
  const card = p.card && {
    ...p.card,
    title: mask(p.card.title),
    body: p.card.body.map(mask),
    question: mask(p.card.question),
    options: p.card.options.map((o) => ({ ...o, label: mask(o.label), description: o.description === null ? null : mask(o.description), ...(o.amend === undefined ? {} : { amend: mask(o.amend) }) })),
    tabs: p.card.tabs.map((t) => ({ ...t, label: mask(t.label) })),
  };
  return {
    ...p,
    title: mask(p.title),
    label: mask(p.label),
    cwd: mask(p.cwd),
    command: mask(p.command),
    draft: p.draft === null ? null : mask(p.draft),
    card,
    ...(p.reason === undefined ? {} : { reason: mask(p.reason) }),
  };
}

export function maskReceipt(r: SendReceipt, mask: Mask): SendReceipt {
  return { ...r, summary: mask(r.summary), outcome: mask(r.outcome), ...(r.left === undefined ? {} : { left: mask(r.left) }) };
}
