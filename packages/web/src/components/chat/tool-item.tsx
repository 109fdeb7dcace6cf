import type { DurableItem } from '@collie/protocol';
import { useChatText } from './chat-text';

const STATUS = { running: 'running', done: 'done', failed: 'failed', denied: 'denied' } as const;

/**
 * `tool`: a tool call, running, done with its output, failed, or denied. With `foldLines`, an
 * output longer than that shows its first lines and the rest behind "Show all". `badge`: a small
 * word in its head ("walky talky" on a pane's Chat). The output is drawn through the chat's
 * `useChatText` (a pane's Chat turns logged message ids into chips).
 */
export function ToolItem({
  item,
  foldLines,
  badge,
}: {
  readonly item: Extract<DurableItem, { kind: 'tool' }>;
  readonly foldLines?: number;
  readonly badge?: string;
}) {
  const lines = item.output ? item.output.split('\n') : [];
  const show = useChatText();
  const folded = foldLines !== undefined && lines.length > foldLines;
  return (
    <div className={`chat-item chat-tool tool-${item.status}`}>
      <div className="tool-head">
        <span className="tool-name">{item.name}</span> {badge ? <span className="tool-badge">{badge}</span> : null}
        <span className="tool-input">{item.input}</span>
        <span className="tool-status">{STATUS[item.status]}</span>
      </div>
      {item.output && !folded ? <pre className="code tool-output">{show(item.output)}</pre> : null}
      {folded ? (
        <details className="tool-fold">
          <summary>{`Show all ${lines.length} lines`}</summary>
          <pre className="code tool-output">{show(item.output)}</pre>
        </details>
      ) : null}
      {folded ? <pre className="code tool-output tool-output-head">{show(lines.slice(0, foldLines).join('\n'))}</pre> : null}
    </div>
  );
}
