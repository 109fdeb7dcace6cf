import { usePaneAction } from '../hooks/use-pane-action';
import { PAD_KEYS, type PadKey, STOP_KEY, padLabel } from '../lib/keys-pad';
import { StatusLine } from './status-line';

/** Keys pressed into the pane as asked, one request per tap, whatever is on screen; Stop only while the agent works. */
export function KeysPad({ paneId, id, working }: { readonly paneId: string; readonly id: string; readonly working: boolean }) {
  const action = usePaneAction(paneId);
  const request = action.attempt?.request;
  const lead = request?.kind === 'keys' ? request.keys.map(padLabel).join(' ') : undefined;
  const press = (key: PadKey): void => action.run({ kind: 'keys', keys: [key.key] });
  return (
    <div className="keys" id={id} role="group" aria-label="Keys pad">
      <div className="keys-grid">
        {PAD_KEYS.map((key) => (
          <PadButton key={key.key} padKey={key} disabled={action.busy} onPress={press} />
        ))}
        {working ? <PadButton padKey={STOP_KEY} disabled={action.busy} onPress={press} stop /> : null}
      </div>
      <StatusLine action={action} lead={lead} className="keys-status" />
    </div>
  );
}

function PadButton({
  padKey,
  disabled,
  onPress,
  stop = false,
}: {
  readonly padKey: PadKey;
  readonly disabled: boolean;
  readonly onPress: (key: PadKey) => void;
  readonly stop?: boolean;
}) {
  const className = `key${stop ? ' key-stop' : ''}${padKey.span ? ` key-span-${padKey.span}` : ''}`;
  return (
    <button type="button" className={className} aria-label={padKey.name} disabled={disabled} onClick={() => onPress(padKey)}>
      {stop ? (
        <>
          <span className="key-stop-label">{padKey.label}</span>
          <span className="key-stop-hint">end the running turn</span>
        </>
      ) : (
        padKey.label
      )}
    </button>
  );
}
