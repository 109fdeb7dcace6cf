/** The line you type into a durable agent's conversation, and Send. "Sent" once the agent took it. */
export function DurableComposer({
  text,
  setText,
  send,
  sent,
  inputRef,
  onKeyDown,
}: {
  readonly text: string;
  readonly setText: (t: string) => void;
  readonly send: () => void;
  readonly sent: boolean;
  readonly inputRef?: React.Ref<HTMLTextAreaElement>;
  readonly onKeyDown?: (e: React.KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  return (
    <form
      className="durable-composer"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) send();
      }}
    >
      <textarea className="durable-input" aria-label="Message" rows={1} maxLength={20_000} value={text} onChange={(e) => setText(e.target.value)} ref={inputRef} onKeyDown={onKeyDown} />
      <div className="durable-send-col">
        <button type="submit" className="button durable-send" disabled={text.trim() === ''}>
          Send
        </button>
        {sent ? <span className="durable-sent" role="status">Sent</span> : null}
      </div>
    </form>
  );
}
