import type * as acp from '@agentclientprotocol/sdk';
import { LIMITS, type WireAnswer } from '@collie/protocol';
import type { QuestionSpec } from '@collie/durable-sdk';

/**
 * `elicitation/create` as a card: a form request becomes a form (strings and numbers as text,
 * enums as a choice, booleans as a toggle; at most 6 fields), a URL request becomes a choice
 * of "Opened it" or "Cancel" under the link. Field ids on the wire are places (`f0`…), so any
 * property name fits; `elicitationContent` maps the phone's values back.
 */

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ElicitField {
  key: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'choice';
}

export interface ElicitCard {
  spec: QuestionSpec;
  fields: ElicitField[];
  /** A URL request: the link to show above the card. */
  url: string | null;
}

function choices(p: Record<string, unknown>): { id: string; label: string }[] | null {
  const fromEnum = Array.isArray(p.enum) ? p.enum.filter((x): x is string => typeof x === 'string').map((x) => ({ id: x, label: x })) : [];
  const fromOneOf = Array.isArray(p.oneOf) ? p.oneOf.filter(isRecord).filter((o) => typeof o.const === 'string').map((o) => ({ id: String(o.const), label: typeof o.title === 'string' ? o.title : String(o.const) })) : [];
  const items = isRecord(p.items) ? choices(p.items) : null;
  const all = [...fromEnum, ...fromOneOf, ...(items ?? [])].filter((o) => o.id.length > 0 && o.id.length <= LIMITS.id);
  return all.length > 0 ? all.slice(0, LIMITS.choiceOptions).map((o) => ({ id: o.id, label: cut(o.label, LIMITS.optionLabel) })) : null;
}

export function elicitationCard(req: acp.CreateElicitationRequest): ElicitCard | null {
  const message = cut(typeof req.message === 'string' ? req.message : 'The agent asks', LIMITS.questionTitle);
  if (req.mode === 'url' && 'url' in req && typeof req.url === 'string') {
    return {
      spec: { kind: 'choice', title: message, body: cut(req.url, LIMITS.questionBody), options: [{ id: 'open', label: 'Opened it' }, { id: 'cancel', label: 'Cancel' }] },
      fields: [],
      url: req.url,
    };
  }
  if (req.mode !== 'form' || !('requestedSchema' in req) || !isRecord(req.requestedSchema)) return null;
  const schema = req.requestedSchema;
  const props = isRecord(schema.properties) ? Object.entries(schema.properties).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1])) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : []);
  const fields: ElicitField[] = [];
  const wire: NonNullable<Extract<QuestionSpec, { kind: 'form' }>['fields']> = [];
  for (const [key, p] of props.slice(0, LIMITS.formFields)) {
    const label = cut(typeof p.title === 'string' ? p.title : key, LIMITS.fieldLabel);
    const id = `f${fields.length}`;
    const opts = choices(p);
    if (opts) {
      fields.push({ key, type: 'choice' });
      wire.push({ kind: 'choice', id, label, required: required.has(key), options: opts });
    } else if (p.type === 'boolean') {
      fields.push({ key, type: 'boolean' });
      wire.push({ kind: 'toggle', id, label, required: false });
    } else {
      fields.push({ key, type: p.type === 'number' || p.type === 'integer' ? p.type : 'string' });
      const max = typeof p.maxLength === 'number' && p.maxLength > 0 ? Math.min(p.maxLength, LIMITS.textMax) : LIMITS.textDefault;
      wire.push({ kind: 'text', id, label, required: required.has(key), limit: Math.floor(max) });
    }
  }
  if (wire.length === 0) return null;
  return { spec: { kind: 'form', title: message, body: typeof schema.description === 'string' ? cut(schema.description, LIMITS.questionBody) : null, fields: wire }, fields, url: null };
}

/** The phone's answer as the elicitation's response; a number field that is not a number is dropped. */
export function elicitationResponse(card: ElicitCard, answer: WireAnswer | null): acp.CreateElicitationResponse {
  if (answer === null) return { action: 'cancel' };
  if (answer.kind === 'choice') return answer.options[0] === 'open' ? { action: 'accept' } : { action: 'cancel' };
  if (answer.kind !== 'form') return { action: 'decline' };
  // No prototype: a field named `__proto__` or `valueOf` is the agent's own key, nothing inherited.
  const content = Object.create(null) as Record<string, string | number | boolean | string[]>;
  card.fields.forEach((f, i) => {
    const v = answer.values[`f${i}`];
    if (v === undefined) return;
    if (f.type === 'boolean') content[f.key] = v === true;
    else if (f.type === 'choice') {
      // Nothing picked (a field not required) is left out: "" is none of the schema's values.
      const pick = Array.isArray(v) ? v[0] : typeof v === 'string' ? v : undefined;
      if (pick) content[f.key] = pick;
    }
    else if (f.type === 'number' || f.type === 'integer') {
      const n = Number(v);
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n) && (f.type === 'number' || Number.isInteger(n))) content[f.key] = n;
    } else if (typeof v === 'string') content[f.key] = v;
  });
  return { action: 'accept', content };
}
