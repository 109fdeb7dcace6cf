import type { DurableItem, WalkyMessage } from '@collie/protocol';
import { ToolItem } from '../chat/tool-item';
import { receiptLine } from '../../lib/walky/messages';
import type { WalkyToolView } from '../../lib/walky/tool';
import { MessageCard } from './message-card';
import './walky.css';

/**
 * A tool card that ran `collie walky`: the "walky talky" badge; after `send` or `reply` the
 * line "Message to <pane>: <state>" from the log's receipt; after `inbox <id>` that message's
 * card under it. Without a log record, the tool's plain output only. Text nodes only.
 */
export function WalkyToolItem({
  item,
  view,
  foldLines,
  onOpen,
}: {
  readonly item: Extract<DurableItem, { kind: 'tool' }>;
  readonly view: WalkyToolView;
  readonly foldLines?: number;
  readonly onOpen?: (id: string) => void;
}) {
  const sent: WalkyMessage | null = view.sent;
  return (
    <div className="wk-tool">
      <ToolItem item={item} badge="walky talky" {...(foldLines === undefined ? {} : { foldLines })} />
      {sent ? (
        <p className={`wk-tool-line${sent.state === 'refused' ? ' wk-bad' : ''}`} data-message={sent.id}>
          {receiptLine(sent)}
        </p>
      ) : null}
      {view.read ? <MessageCard message={view.read} {...(onOpen ? { onOpen } : {})} /> : null}
    </div>
  );
}
