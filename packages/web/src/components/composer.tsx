import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { usePaneAction } from '../hooks/use-pane-action';
import { boxAfter, sendBlocker, textToSend } from '../lib/composer-box';
import { onEdit } from '../lib/edit-bus';
import { StatusLine } from './status-line';
import { AttachButton } from './workbench/attach-button';
import { AttachmentList } from './workbench/attachment-list';
import { useAttachments } from './workbench/use-attachments';
import { useFilesSettled } from './workbench/use-files-settled';
import { QuickReplyChips } from './workbench/quick-reply-chips';
import { attachmentsToSend } from '../lib/workbench/attachments';
import { useSendAsMessage } from './walky/send-as-message';
import { SendLater } from './send-later';
import { useClientState } from '../hooks/use-client';
import { postCancel } from '../lib/cancel-api';
import type { SendLaterChoice } from '../lib/pane-request';

interface Props {
  readonly paneId: string;
  /** Why nothing can be sent (the pane is gone), or null. */
  readonly disabledReason: string | null;
  /** The pane's input box holds the person's own draft: a send would be refused. */
  readonly paneHasDraft: boolean;
  /**
   * A menu the person opened is on the pane (a slash popup, a model picker): text would go into
   * the menu, so the box gives way to a sentence until it closes (what was written stays).
   */
  readonly menuOpen?: boolean;
  /** Says what the text goes to: "Message the agent", "Type a command". */
  readonly placeholder: string;
  /** The saved one-tap texts are for agents: a shell is not offered them. */
  readonly quickReplies?: boolean;
  readonly keysOpen: boolean;
  readonly keysId: string;
  readonly onToggleKeys: () => void;
}

/** A mouse or trackpad: a desktop, where Enter sends. */
function useFinePointer(): boolean {
  return useSyncExternalStore(subscribePointer, finePointer, () => false);
}

function subscribePointer(listener: () => void): () => void {
  const query = window.matchMedia('(pointer: fine)');
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

function finePointer(): boolean {
  return window.matchMedia('(pointer: fine)').matches;
}

/**
 * Text for the pane's input box, sent through the bridge's send protocol, and where that send
 * stands, live. The box empties once the text is typed and keeps it when it was not sent.
 */
export function Composer({ paneId, disabledReason, paneHasDraft, menuOpen = false, placeholder, quickReplies = true, keysOpen, keysId, onToggleKeys }: Props) {
  const action = usePaneAction(paneId);
  const [box, setBox] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const settled = useRef<string | null>(null);
  const { attempt, receipt } = action;
  const files = useAttachments();
  useFilesSettled(action, files, setBox);

  useEffect(() => {
    if (!attempt || attempt.request.kind !== 'text' || !(receipt?.final || receipt?.state === 'scheduled') || settled.current === attempt.requestId) return;
    settled.current = attempt.requestId;
    const sent = attempt.request.text;
    setBox((now) => boxAfter(now, sent, receipt));
  }, [attempt, receipt]);

  // Edit on a held send (in Recent sends) cancelled it and hands its text back here.
  useEffect(
    () =>
      onEdit(paneId, (text) => {
        setBox(text);
        area.current?.focus();
      }),
    [paneId],
  );

  // Grows with the text up to the height CSS allows (about six rows), then scrolls.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [box]);

  const text = textToSend(box);
  const pendingSame = (attempt?.request.kind === 'text' || attempt?.request.kind === 'files') && attempt.request.text === text && action.line?.moving === true;
  // With files attached the text may be empty: the files are the message.
  const attached = files.list.length > 0 ? attachmentsToSend(files.list) : null;
  const blocked = disabledReason !== null || action.busy || pendingSame || (attached ? attached.blocker !== null : sendBlocker(box) !== null);
  const send = (): void => {
    if (blocked) return;
    if (attached) action.run({ kind: 'files', text, attachments: attached.ids });
    else action.run({ kind: 'text', text });
  };
  // "Send later…" (the long-press menu): the same send, with a time; the bridge keeps it.
  const [laterOpen, setLaterOpen] = useState(false);
  const pane = useClientState().model?.panes.get(paneId);
  const sendLater = (later: SendLaterChoice): void => {
    setLaterOpen(false);
    if (!blocked && !attached) action.run({ kind: 'text', text, later });
  };
  const scheduled = receipt?.state === 'scheduled' && attempt ? attempt.requestId : null;
  const asMessage = useSendAsMessage(paneId, text, () => setBox(''), attached ? undefined : () => setLaterOpen(true));
  const desktop = useFinePointer();
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // As in every chat app: on a desktop Enter sends and Shift+Enter makes a new line; a
    // phone's Enter makes a new line (its Send button is under the thumb). Ctrl/Cmd+Enter sends anywhere.
    if ((desktop && !event.shiftKey) || event.ctrlKey || event.metaKey) {
      event.preventDefault();
      send();
    }
  };
  // While our own send is being typed, the pane's box holds our text, not the person's draft.
  const ownTyping = action.line?.moving === true || action.busy;
  const menuShown = menuOpen && disabledReason === null;

  return (
    <div className="composer">
      <StatusLine action={action} className="composer-status" onCancel={scheduled ? () => void postCancel(paneId, scheduled) : undefined} />
      {disabledReason ? <p className="composer-note">{disabledReason}</p> : null}
      {menuShown ? (
        <p className="composer-note composer-menu" role="status">
          A menu is open in the terminal. Close it there, or with Esc on the keys pad, to write to the agent.
        </p>
      ) : null}
      {disabledReason === null && paneHasDraft && !ownTyping && !menuShown ? (
        <p className="composer-note">The pane's input box holds a draft: a send is refused until it is cleared.</p>
      ) : null}
      {quickReplies ? (
        <QuickReplyChips disabled={disabledReason !== null || action.busy || menuShown} onPick={(quick) => action.run({ kind: 'text', text: quick })} />
      ) : null}
      <AttachmentList list={files.list} onRemove={files.remove} />
      <div className="composer-row">
        <AttachButton onFiles={files.add} disabled={disabledReason !== null} />
        <button
          type="button"
          className={`composer-keys${keysOpen ? ' composer-keys-open' : ''}`}
          aria-expanded={keysOpen}
          aria-controls={keysOpen ? keysId : undefined}
          onClick={onToggleKeys}
          disabled={disabledReason !== null}
        >
          Keys
        </button>
        {menuShown ? null : (
          <>
            <textarea
              ref={area}
              className="composer-box"
              rows={1}
              value={box}
              placeholder={disabledReason === null ? placeholder : ''}
              aria-label="Text to send to the pane"
              aria-describedby={desktop ? `${keysId}-hint` : undefined}
              disabled={disabledReason !== null}
              onChange={(event) => setBox(event.currentTarget.value)}
              onKeyDown={onKeyDown}
              onPaste={(event) => {
                // A screenshot pasted on a desktop is attached, not typed.
                const pasted = [...event.clipboardData.files];
                if (pasted.length === 0) return;
                event.preventDefault();
                files.add(pasted);
              }}
            />
            <button type="button" className="composer-send" onClick={asMessage.guard(send)} disabled={blocked} {...asMessage.pressProps}>
              Send
            </button>
          </>
        )}
      </div>
      {asMessage.view}
      {laterOpen ? <SendLater pane={pane} onPick={sendLater} onClose={() => setLaterOpen(false)} /> : null}
      {desktop ? (
        <p className="composer-hint" id={`${keysId}-hint`}>
          <kbd>Enter</kbd> sends · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Esc</kbd> back to the panes
        </p>
      ) : null}
    </div>
  );
}
