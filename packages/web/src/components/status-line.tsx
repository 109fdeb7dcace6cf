import type { PaneAction } from '../hooks/use-pane-action';

/**
 * Where the last send of a control stands, in the receipt's words, following it live. An
 * unsure call offers Try again (the same request id, so nothing types twice); a settled line
 * can be dismissed; a send that waits (`scheduled for 02:00`) offers Cancel.
 */
export function StatusLine({ action, lead, className, onCancel }: { readonly action: PaneAction; readonly lead?: string; readonly className?: string; readonly onCancel?: () => void }) {
  const line = action.line;
  if (line === null) return null;
  const unsure = action.attempt?.result?.kind === 'unsure';
  return (
    <div className={`status status-${line.tone}${className ? ` ${className}` : ''}`} role="status" aria-live="polite">
      <span className="status-dot" aria-hidden="true" />
      <span className="status-words">
        {lead ? <span className="status-lead">{lead}: </span> : null}
        {line.words}
      </span>
      {unsure ? (
        <button type="button" className="status-button" onClick={action.retry} disabled={action.busy}>
          Try again
        </button>
      ) : null}
      {onCancel ? (
        <button type="button" className="status-button" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
      {line.moving ? null : (
        <button type="button" className="status-button status-dismiss" onClick={action.dismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
