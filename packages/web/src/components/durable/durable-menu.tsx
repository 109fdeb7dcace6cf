/** The conversation's menu: a durable agent has no History, Pane settings or Pin to top row; Close reads "Close conversation". */
export function DurableMenu({ close }: { readonly close: (() => void) | null }) {
  if (!close) return null;
  return (
    <details className="durable-menu">
      <summary className="button durable-menu-button" aria-label="Menu">
        ⋯
      </summary>
      <div className="durable-menu-list" role="menu">
        <button type="button" role="menuitem" className="button" onClick={close}>
          Close conversation
        </button>
      </div>
    </details>
  );
}
