import type { OptionView } from '../lib/card-view';

interface Props {
  readonly options: readonly OptionView[];
  readonly checks: ReadonlySet<number>;
  readonly locked: boolean;
  readonly onPick: (n: number) => void;
  readonly onToggle: (n: number) => void;
}

/** A card's options: one large button per answer, checkboxes for a multi-select, the rest shown disabled. */
export function CardOptions({ options, checks, locked, onPick, onToggle }: Props) {
  return (
    <ul className="options">
      {options.map((option) => (
        <li key={option.n}>
          {option.as === 'check' ? (
            <label className={`option option-check${locked ? ' option-off' : ''}`}>
              <input type="checkbox" checked={checks.has(option.n)} disabled={locked} onChange={() => onToggle(option.n)} />
              <OptionText option={option} />
            </label>
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
