import { useState, type FormEvent } from 'react';
import { WORDS_PLACEHOLDER } from '../lib/card-view';

interface Props {
  readonly n: number;
  /** What the field is for, read by screen readers and shown as its placeholder. */
  readonly label: string;
  readonly locked: boolean;
  readonly onSend: (n: number, text: string) => void;
}

/** A field for an option that takes words, and its Send button: the bridge picks the option and types them. */
export function OptionWords({ n, label, locked, onSend }: Props) {
  const [text, setText] = useState('');
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
