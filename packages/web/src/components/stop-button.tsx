import { usePaneAction } from '../hooks/use-pane-action';
import { stopWords } from '../lib/stop-words';

/**
 * Stop, where the person looks while an agent works: in the pane's header, and only while it
 * works. It presses the agent's own stop key through the send protocol; what happened is said
 * beside it ("Stopped", or the receipt's words when it was not).
 */
export function StopButton({ paneId, working }: { readonly paneId: string; readonly working: boolean }) {
  const action = usePaneAction(paneId);
  const words = stopWords(action.line, action.receipt, working);
  if (!working && words === null) return null;
  return (
    <span className="stop">
      {working ? (
        <button type="button" className="stop-button" onClick={() => action.run({ kind: 'keys', keys: ['Stop'] })} disabled={action.busy || action.line?.moving === true}>
          Stop
        </button>
      ) : null}
      {words === null ? null : (
        <span className="stop-result" role="status">
          {words}
        </span>
      )}
    </span>
  );
}
