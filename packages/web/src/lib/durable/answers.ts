import type { FormField, WireAnswer } from '@collie/protocol';

/** A form's values as the phone holds them while you fill it in. */
export type FormValue = string | string[] | boolean;
export type FormValues = Readonly<Record<string, FormValue>>;

/** The text question's count, "12 of 500", counted as the agent's SDK counts (UTF-16 units, like maxLength). */
export function countWords(text: string, limit: number): string {
  return `${text.length} of ${limit}`;
}

/** A text within its limit. */
export function cutTo(text: string, limit: number): string {
  return text.length <= limit ? text : text.slice(0, limit);
}

/** The first field that says Required and is still empty, else null. */
export function missingRequired(fields: readonly FormField[], values: FormValues): FormField | null {
  for (const f of fields) {
    if (!f.required) continue;
    const v = values[f.id];
    if (f.kind === 'text' && (typeof v !== 'string' || v.trim() === '')) return f;
    if (f.kind === 'choice' && (!Array.isArray(v) || v.length === 0)) return f;
    if (f.kind === 'toggle' && v !== true) return f;
  }
  return null;
}

/** The form's answer: every field given a value (an unset toggle is false, an unset text is ""). */
export function formAnswer(fields: readonly FormField[], values: FormValues): WireAnswer {
  const out: Record<string, string | string[] | boolean> = {};
  for (const f of fields) {
    const v = values[f.id];
    if (f.kind === 'text') out[f.id] = typeof v === 'string' ? cutTo(v, f.limit) : '';
    else if (f.kind === 'choice') out[f.id] = Array.isArray(v) ? v : [];
    else out[f.id] = v === true;
  }
  return { kind: 'form', values: out };
}
