import { useState } from 'react';
import type { OptionView } from '../lib/card-view';
import { OptionWords } from './option-words';

interface Props {
  readonly options: readonly OptionView[];
  readonly checks: ReadonlySet<number>;
  readonly locked: boolean;
  readonly onPick: (n: number) => void;
  readonly onToggle: (n: number) => void;
  readonly onWords: (n: number, text: string) => void;
}

/**
 * A card's options: one large button per answer, checkboxes for a multi-select, a field for an
 * option that takes words (and one under a button that may carry words), the rest shown
 * disabled. The narrowest yes is the primary button; an answer that reaches wider than this
 * one ask is marked so and takes a second tap, so a slip of the thumb cannot grant it.
 */
export function CardOptions({ options, checks, locked, onPick, onToggle, onWords }: Props) {
  const [armed, setArmed] = useState<number | null>(null);
  const tap = (option: OptionView): void => {
    if (option.reach === 'wider' && armed !== option.n) return setArmed(option.n);
    setArmed(null);
    onPick(option.n);
  };
  return (
    <ul className="options">
      {options.map((option) => (
        <li key={option.n}>
          {option.as === 'check' ? (
            <label className={`option option-check${locked ? ' option-off' : ''}`}>
              <input type="checkbox" checked={checks.has(option.n)} disabled={locked} onChange={() => onToggle(option.n)} />
              <OptionText option={option} armed={false} />
            </label>
          ) : option.as === 'text' ? (
            <div className="option option-text-field">
              <OptionText option={option} armed={false} />
              <OptionWords n={option.n} label={option.label} locked={locked} onSend={onWords} />
            </div>
          ) : (
            <button
              type="button"
              className={`option option-${option.as} option-${option.reach}${armed === option.n ? ' option-armed' : ''}`}
              disabled={locked || option.as === 'shown'}
              onClick={option.as === 'pick' ? () => tap(option) : undefined}
            >
              <OptionText option={option} armed={armed === option.n} />
            </button>
          )}
          {option.words !== null ? <OptionWords n={option.n} label={option.words} locked={locked} onSend={onWords} /> : null}
        </li>
      ))}
    </ul>
  );
}

function OptionText({ option, armed }: { readonly option: OptionView; readonly armed: boolean }) {
  return (
    <span className="option-text">
      <span className="option-label">
        <span className="option-n">{option.n}.</span> {option.label}
      </span>
      {option.description ? <span className="option-desc">{option.description}</span> : null}
      {option.hint ? <span className="option-hint">{option.hint}</span> : null}
      {option.reach === 'wider' ? (
        <span className="option-reach">{armed ? 'Tap again to confirm: this covers more than this one ask' : 'Wider: covers more than this one ask · two taps'}</span>
      ) : null}
    </span>
  );
}
