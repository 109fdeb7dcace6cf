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
 * option that takes words (and one under a button that may carry words), the rest shown disabled.
 */
export function CardOptions({ options, checks, locked, onPick, onToggle, onWords }: Props) {
  return (
    <ul className="options">
      {options.map((option) => (
        <li key={option.n}>
          {option.as === 'check' ? (
            <label className={`option option-check${locked ? ' option-off' : ''}`}>
              <input type="checkbox" checked={checks.has(option.n)} disabled={locked} onChange={() => onToggle(option.n)} />
              <OptionText option={option} />
            </label>
          ) : option.as === 'text' ? (
            <div className="option option-text-field">
              <OptionText option={option} />
              <OptionWords n={option.n} label={option.label} locked={locked} onSend={onWords} />
            </div>
          ) : (
            <button
              type="button"
              className={`option option-${option.as}`}
              disabled={locked || option.as === 'shown'}
              onClick={option.as === 'pick' ? () => onPick(option.n) : undefined}
            >
              <OptionText option={option} />
            </button>
          )}
          {option.words !== null ? <OptionWords n={option.n} label={option.words} locked={locked} onSend={onWords} /> : null}
        </li>
      ))}
    </ul>
  );
}

function OptionText({ option }: { readonly option: OptionView }) {
  return (
    <span className="option-text">
      <span className="option-label">
        <span className="option-n">{option.n}.</span> {option.label}
      </span>
      {option.description ? <span className="option-desc">{option.description}</span> : null}
      {option.hint ? <span className="option-hint">{option.hint}</span> : null}
    </span>
  );
}
