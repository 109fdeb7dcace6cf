/** The "Show only panes that need you" switch: a real checkbox, so it works with every input method. */
export function NeedsYouSwitch({ on, onChange }: { readonly on: boolean; readonly onChange: (on: boolean) => void }) {
  return (
    <label className="switch">
      <span className="switch-text">Show only panes that need you</span>
      <input
        className="switch-input"
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
    </label>
  );
}
