import type { KnownQuestion, WireAnswer } from '@collie/protocol';

/** Why an answer does not fit its question, in words for the phone; null when it fits. */
export function checkAnswer(q: KnownQuestion, a: WireAnswer): string | null {
  if (a.kind !== q.kind) return `This is a ${q.kind} question; the answer was for ${a.kind}.`;
  const ids = (xs: readonly { id: string }[]) => new Set(xs.map((x) => x.id));
  switch (a.kind) {
    case 'permission':
      return q.kind === 'permission' && !ids(q.options).has(a.option) ? 'That option is not one of the question’s.' : null;
    case 'choice': {
      if (q.kind !== 'choice') return null;
      const known = ids(q.options);
      if (a.options.some((o) => !known.has(o))) return 'That option is not one of the question’s.';
      if (new Set(a.options).size !== a.options.length) return 'An option was picked twice.';
      return !q.multiple && a.options.length !== 1 ? 'Pick one option.' : null;
    }
    case 'text':
      if (q.kind !== 'text') return null;
      if (a.text.trim() === '') return 'The answer is empty.';
      return a.text.length > q.limit ? `The answer is over ${q.limit} characters.` : null;
    case 'form': {
      if (q.kind !== 'form') return null;
      const fields = new Map(q.fields.map((f) => [f.id, f]));
      for (const id of Object.keys(a.values)) if (!fields.has(id)) return `The form has no field "${id.slice(0, 40)}".`;
      for (const f of q.fields) {
        const v = a.values[f.id];
        const empty = v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || v === false;
        if (f.required && empty) return `${f.label}: required.`;
        if (v === undefined) continue;
        if (f.kind === 'text' && (typeof v !== 'string' || v.length > f.limit)) return `${f.label}: text of at most ${f.limit} characters.`;
        if (f.kind === 'toggle' && typeof v !== 'boolean') return `${f.label}: on or off.`;
        if (f.kind === 'choice') {
          const known = ids(f.options);
          if (!Array.isArray(v) || v.length > 1 || v.some((o) => !known.has(o))) return `${f.label}: pick one of its options.`;
        }
      }
      return null;
    }
  }
}
