import type { StepView } from '../lib/card-view';

/** A wizard's questions as a small stepper: answered ones ticked, the one on screen marked. */
export function CardSteps({ steps }: { readonly steps: readonly StepView[] }) {
  return (
    <ol className="steps" aria-label="Questions">
      {steps.map((step, i) => (
        <li
          key={i}
          className={`step${step.active ? ' step-active' : ''}${step.answered ? ' step-answered' : ''}`}
          aria-current={step.active ? 'step' : undefined}
        >
          <span className="step-mark" aria-hidden="true">
            {step.answered ? '✓' : i + 1}
          </span>
          <span className="step-label">{step.label}</span>
          {step.answered ? <span className="visually-hidden"> (answered)</span> : null}
        </li>
      ))}
    </ol>
  );
}
