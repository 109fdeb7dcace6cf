import { Fit, httpsUrl } from './clean';
import type { WireItem } from './items';
import { BUTTON_ICONS, LIMITS } from './limits';
import type { DurableItem, DurableQuestion } from './model';
import { KnownQuestion, type WireQuestion } from './questions';
import type { ClosedConversation, ConversationMeta, Starter } from './wire';

/**
 * The reader's side of "anything out of its limits is cut or cleaned": pure functions from
 * what the agent sent to what the phone is served. `mask` hides secrets (the bridge passes its
 * redactor; identity elsewhere).
 */
export type Mask = (s: string) => string;
const same: Mask = (s) => s;

export function fitItem(item: WireItem, mask: Mask = same): DurableItem {
  const f = new Fit();
  const receipt = false;
  switch (item.kind) {
    case 'link': {
      const url = f.line(item.url, LIMITS.url);
      const label = f.maybe(item.label, LIMITS.linkLabel);
      return { ...item, url: mask(url), label: label === null ? null : mask(label), href: httpsUrl(url), shortened: f.shortened, receipt };
    }
    case 'tool':
      return {
        ...item,
        name: f.line(item.name, LIMITS.toolName),
        input: mask(f.line(item.input, LIMITS.toolInput)),
        output: mask(f.text(item.output, LIMITS.toolOutput)),
        href: null,
        shortened: f.shortened,
        receipt,
      };
    case 'code':
      return { ...item, text: mask(f.text(item.text, LIMITS.itemText)), language: f.maybe(item.language, LIMITS.language), href: null, shortened: f.shortened, receipt };
    case 'user':
    case 'reply':
    case 'thinking':
    case 'notice':
    case 'markdown':
      return { ...item, text: mask(f.text(item.text, LIMITS.itemText)), href: null, shortened: f.shortened, receipt };
  }
}

/** A growing item's next piece, appended and fitted again. */
export function appendToItem(item: DurableItem, text: string, final: boolean, mask: Mask = same): DurableItem {
  const grown: WireItem =
    item.kind === 'tool' ? { ...item, output: item.output + text, final } : item.kind === 'link' ? { ...item, final } : { ...item, text: item.text + text, final };
  const fitted = fitItem(grown, mask);
  return { ...fitted, shortened: fitted.shortened || item.shortened };
}

const KNOWN = new Set(['permission', 'choice', 'text', 'form']);

export function fitQuestion(q: WireQuestion, mask: Mask = same): DurableQuestion {
  const f = new Fit();
  const words = {
    title: mask(f.line(q.title, LIMITS.questionTitle)),
    body: q.body === null ? null : mask(f.text(q.body, LIMITS.questionBody)),
    toolCall: q.toolCall && { id: q.toolCall.id, name: f.line(q.toolCall.name, LIMITS.toolName) },
  };
  const known = KNOWN.has(q.kind) ? KnownQuestion.safeParse(q) : null;
  if (!known?.success) {
    const { id, version, expiresAt, at } = q;
    return { kind: 'unknown', originalKind: f.line(q.kind, 40), id, version, expiresAt, at, ...words, shortened: f.shortened, answerable: false };
  }
  const k = known.data;
  const push = k.push && { title: f.maybe(k.push.title, LIMITS.pushTitle), line: f.maybe(k.push.line, LIMITS.pushLine) };
  const option = <T extends { label: string }>(o: T): T => ({ ...o, label: mask(f.line(o.label, LIMITS.optionLabel)) });
  const base = { ...k, ...words, push };
  let out: KnownQuestion;
  switch (k.kind) {
    case 'permission':
      out = { ...base, kind: 'permission', options: f.list(k.options, LIMITS.permissionOptions).map(option) };
      break;
    case 'choice':
      out = { ...base, kind: 'choice', multiple: k.multiple, options: f.list(k.options, LIMITS.choiceOptions).map(option) };
      break;
    case 'text':
      out = { ...base, kind: 'text', limit: Math.min(k.limit, LIMITS.textMax), placeholder: f.maybe(k.placeholder, LIMITS.optionLabel) };
      break;
    case 'form':
      out = {
        ...base,
        kind: 'form',
        fields: f.list(k.fields, LIMITS.formFields).map((field) => {
          const label = mask(f.line(field.label, LIMITS.fieldLabel));
          if (field.kind === 'choice') return { ...field, label, options: f.list(field.options, LIMITS.choiceOptions).map(option) };
          if (field.kind === 'text') return { ...field, label, limit: Math.min(field.limit, LIMITS.textMax) };
          return { ...field, label };
        }),
      };
      break;
  }
  return { ...out, shortened: f.shortened || k.shortened, answerable: true };
}

export function fitMeta(m: ConversationMeta, mask: Mask = same): ConversationMeta {
  const f = new Fit();
  const progress =
    m.progress === null
      ? null
      : m.progress.kind === 'steps'
        ? { kind: 'steps' as const, steps: f.list(m.progress.steps, LIMITS.progressSteps).map((s) => ({ ...s, label: mask(f.line(s.label, LIMITS.stepLabel)) })) }
        : { kind: 'percent' as const, percent: Math.max(0, Math.min(100, m.progress.percent)), label: f.maybe(m.progress.label, LIMITS.progressLabel) };
  const maybeMask = (s: string | null) => (s === null ? null : mask(s));
  return {
    ...m,
    title: maybeMask(f.maybe(m.title, LIMITS.conversationTitle)),
    subtitle: maybeMask(f.maybe(m.subtitle, LIMITS.subtitle)),
    workspace: maybeMask(f.maybe(m.workspace, LIMITS.workspace)),
    progress,
    buttons: f.list(m.buttons, LIMITS.buttons).map((b) => ({
      ...b,
      label: f.line(b.label, LIMITS.buttonLabel),
      icon: b.icon !== null && (BUTTON_ICONS as readonly string[]).includes(b.icon) ? b.icon : null,
    })),
  };
}

export function fitStarters(xs: readonly Starter[], mask: Mask = same): Starter[] {
  const f = new Fit();
  return f.list(xs, LIMITS.starters).map((s) => ({ ...s, label: mask(f.line(s.label, LIMITS.starterLabel)), line: f.maybe(s.line, LIMITS.starterLine) }));
}

export function fitClosed(c: ClosedConversation, mask: Mask = same): ClosedConversation {
  const f = new Fit();
  const t = f.maybe(c.title, LIMITS.conversationTitle);
  const s = f.maybe(c.subtitle, LIMITS.subtitle);
  return { ...c, title: t === null ? null : mask(t), subtitle: s === null ? null : mask(s) };
}
