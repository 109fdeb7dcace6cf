import type { DurableItem } from '@collie/protocol';

const STATUS = { running: 'running', done: 'done', failed: 'failed', denied: 'denied' } as const;

/** `tool`: a tool call, running, done with its output, failed, or denied. */
export function ToolItem({ item }: { readonly item: Extract<DurableItem, { kind: 'tool' }> }) {
  return (
    <div className={`chat-item chat-tool tool-${item.status}`}>
      <div className="tool-head">
        <span className="tool-name">{item.name}</span> <span className="tool-input">{item.input}</span>
        <span className="tool-status">{STATUS[item.status]}</span>
      </div>
      {item.output ? <pre className="code tool-output">{item.output}</pre> : null}
    </div>
  );
}
