import type { Controls, DurableConversation } from '@collie/protocol';
import { BeltIcon } from './belt-icon';

export interface BeltProps {
  readonly c: DurableConversation;
  readonly controls: Controls;
  /** The composer's text, for Steer. */
  readonly text: string;
  readonly steer: () => void;
  readonly stop: () => void;
  readonly button: (id: string) => void;
  /** In place of the plain Stop (a Nerve session's split Stop). */
  readonly stopSlot?: React.ReactNode;
}

/**
 * The belt: Steer and Stop, then up to 4 buttons of the durable agent's own. A button that
 * cannot act now is dimmed in place (aria-disabled, never removed), so nothing moves.
 */
export function DurableBelt({ c, controls, text, steer, stop, button, stopSlot }: BeltProps) {
  const canSteer = c.working && text.trim() !== '';
  return (
    <nav className="belt durable-belt" aria-label="Belt">
      {controls.steer ? (
        <button type="button" className="button belt-button" aria-disabled={!canSteer} onClick={() => canSteer && steer()}>
          Steer
        </button>
      ) : null}
      {stopSlot ?? null}
      {controls.stop && !stopSlot ? (
        <button type="button" className="button belt-button" aria-disabled={!c.working} onClick={() => c.working && stop()}>
          Stop
        </button>
      ) : null}
      {c.buttons.map((b) => {
        const off = b.disabled || b.busy;
        return (
          <button key={b.id} type="button" className={`button belt-button${b.busy ? ' belt-busy' : ''}`} aria-disabled={off} aria-busy={b.busy} onClick={() => off || button(b.id)}>
            {b.busy ? <span className="spinner" aria-hidden="true" /> : <BeltIcon name={b.icon} />}
            <span>{b.label}</span>
          </button>
        );
      })}
    </nav>
  );
}
