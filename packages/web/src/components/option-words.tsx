import { createContext, useContext, useState, type FormEvent } from 'react';
import { WORDS_PLACEHOLDER } from '../lib/card-view';

/**
 * Words typed into an option's field, by option number and label, kept by whoever shows the
 * cards of one pane: a card read again with another signature (the agent redrew its dialog)
 * is a new card, but the same option keeps what the person had typed.
 */
export const WordsDrafts = createContext<Map<string, string> | null>(null);

interface Props {
  readonly n: number;
  /** What the field is for, read by screen readers and shown as its placeholder. */
  readonly label: string;
  readonly locked: boolean;
  readonly onSend: (n: number, text: string) => void;
}

/** A field for an option that takes words, and its Send button: the bridge picks the option and types them. */
export function OptionWords({ n, label, locked, onSend }: Props) {
  const drafts = useContext(WordsDrafts);
  const key = `${n}\u0000${label}`;
  const [text, setTextState] = useState(() => drafts?.get(key) ?? '');
  const setText = (next: string): void => {
    drafts?.set(key, next);
    setTextState(next);
  };
  const words = text.trim();
  const send = (e: FormEvent): void => {
    e.preventDefault();
    if (words !== '' && !locked) onSend(n, text);
  };
  return (
    <form className="option-words" onSubmit={send}>
      <input type="text" value={text} placeholder={label === '' ? WORDS_PLACEHOLDER : label} aria-label={label || WORDS_PLACEHOLDER} disabled={locked} onChange={(e) => setText(e.target.value)} enterKeyHint="send" />
      <button type="submit" aria-label={`Answer ${n} with these words`} disabled={locked || words === ''}>
        Send
      </button>
    </form>
  );
}
