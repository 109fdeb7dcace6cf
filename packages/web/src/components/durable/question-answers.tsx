import { useState } from 'react';
import type { DurableQuestion, WireAnswer } from '@collie/protocol';
import { countWords, formAnswer, missingRequired, type FormValues } from '../../lib/durable/answers';
import { PERMISSION_WORDS } from '../../lib/durable/words';

type Kind<K extends string> = Extract<DurableQuestion, { kind: K }>;
interface AnswerProps<K extends string> {
  readonly q: Kind<K>;
  /** The buttons stay but do not send (frozen, or a tap on its way). */
  readonly off: boolean;
  readonly send: (answer: WireAnswer) => void;
}

/** Permission: Collie's words on the buttons, the agent's label as the quiet line; "Always allow" in two taps. */
export function PermissionAnswer({ q, off, send }: AnswerProps<'permission'>) {
  const [armed, setArmed] = useState(false);
  // Not offered when no tool is named, or when the words were cut (you were not shown them whole).
  const options = q.options.filter((o) => o.action !== 'always' || (q.toolCall !== null && !q.shortened));
  return (
    <div className="card-options">
      {options.map((o) => {
        const always = o.action === 'always';
        return (
          <button
            key={o.id}
            type="button"
            className={`button option${always && armed ? ' option-armed' : ''}`}
            aria-disabled={off}
            onClick={() => {
              if (off) return;
              if (always && !armed) return setArmed(true);
              send({ kind: 'permission', option: o.id });
            }}
          >
            <span className="option-words">{always && armed ? `Tap again to always allow ${q.toolCall?.name ?? ''}` : PERMISSION_WORDS[o.action]}</span>
            <span className="option-quiet">{o.label}</span>
          </button>
        );
      })}
    </div>
  );
}

/** Choice: one tap sends the pick; with `multiple` the rows toggle under "Pick any number" and Send sends the set. */
export function ChoiceAnswer({ q, off, send }: AnswerProps<'choice'>) {
  const [picked, setPicked] = useState<readonly string[]>([]);
  if (!q.multiple) {
    return (
      <div className="card-options">
        {q.options.map((o) => (
          <button key={o.id} type="button" className="button option" aria-disabled={off} onClick={() => off || send({ kind: 'choice', options: [o.id] })}>
            {o.label}
          </button>
        ))}
      </div>
    );
  }
  const toggle = (id: string) => setPicked((was) => (was.includes(id) ? was.filter((x) => x !== id) : [...was, id]));
  return (
    <div className="card-options">
      <p className="card-pick-any">Pick any number</p>
      {q.options.map((o) => (
        <button key={o.id} type="button" className="button option option-toggle" aria-pressed={picked.includes(o.id)} onClick={() => toggle(o.id)}>
          <span className="option-check" aria-hidden="true">{picked.includes(o.id) ? '☑' : '☐'}</span> {o.label}
        </button>
      ))}
      <button type="button" className="button card-send" disabled={off || picked.length === 0} onClick={() => send({ kind: 'choice', options: q.options.map((o) => o.id).filter((id) => picked.includes(id)) })}>
        Send
      </button>
    </div>
  );
}

/** Text: one line to type in, the count "12 of 500", and Send. */
export function TextAnswer({ q, off, send }: AnswerProps<'text'>) {
  const [text, setText] = useState('');
  return (
    <form
      className="card-text"
      onSubmit={(e) => {
        e.preventDefault();
        if (!off && text.trim()) send({ kind: 'text', text });
      }}
    >
      <input className="card-input" aria-label={q.title} value={text} maxLength={q.limit} placeholder={q.placeholder ?? ''} onChange={(e) => setText(e.target.value)} />
      <div className="card-row">
        <span className="card-count">{countWords(text, q.limit)}</span>
        <button type="submit" className="button card-send" disabled={off || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}

/** Form: its fields stacked under one Send: a text line, a choice as a list to pick from, or a toggle. */
export function FormAnswer({ q, off, send }: AnswerProps<'form'>) {
  const [values, setValues] = useState<FormValues>({});
  const set = (id: string, v: string | string[] | boolean) => setValues((was) => ({ ...was, [id]: v }));
  const missing = missingRequired(q.fields, values);
  return (
    <form
      className="card-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!off && !missing) send(formAnswer(q.fields, values));
      }}
    >
      {q.fields.map((f) => {
        const id = `f-${q.id}-${f.id}`;
        const head = (
          <label className="field-label" htmlFor={id}>
            {f.label} {f.required ? <span className="field-required">Required</span> : null}
          </label>
        );
        if (f.kind === 'toggle')
          return (
            <div key={f.id} className="field field-toggle">
              <input id={id} type="checkbox" checked={values[f.id] === true} onChange={(e) => set(f.id, e.target.checked)} />
              {head}
            </div>
          );
        if (f.kind === 'choice') {
          const v = values[f.id];
          return (
            <div key={f.id} className="field">
              {head}
              <select id={id} className="card-input" value={Array.isArray(v) ? (v[0] ?? '') : ''} onChange={(e) => set(f.id, e.target.value ? [e.target.value] : [])}>
                <option value="">Pick one</option>
                {f.options.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          );
        }
        const v = values[f.id];
        return (
          <div key={f.id} className="field">
            {head}
            <input id={id} className="card-input" maxLength={f.limit} value={typeof v === 'string' ? v : ''} onChange={(e) => set(f.id, e.target.value)} />
          </div>
        );
      })}
      <button type="submit" className="button card-send" disabled={off || missing !== null}>
        Send
      </button>
    </form>
  );
}
