import type { Pane, SendReceipt } from '@collie/protocol';
import type { ReactNode } from 'react';
import { useCallback, useState } from 'react';
import type { PaneChatState } from '../../lib/pane-chat/chat-state';
import { firstView } from '../../lib/pane-chat/words';
import { PaneChatView } from './pane-chat-view';
import { usePaneChat } from './use-pane-chat';

export type View = 'chat' | 'terminal';

/** A pane's chat and which view shows it: the page places the dialog card by the view. */
export interface PaneViewState {
  readonly chat: PaneChatState | null;
  readonly older: () => Promise<void>;
  readonly view: View;
  readonly choose: (v: View) => void;
}

function stored(key: string): View | null {
  try {
    const v = window.localStorage.getItem(key);
    return v === 'chat' || v === 'terminal' ? v : null;
  } catch {
    return null;
  }
}

/** Follows a pane's chat and its view: Chat first when the agent's transcript is found, the choice remembered per pane. */
export function usePaneView(paneId: string): PaneViewState {
  const { chat, older } = usePaneChat(paneId);
  const key = `collie.view.${paneId}`;
  const [chosen, setChosen] = useState<View | null>(() => stored(key));
  const view = firstView(chosen, chat?.source != null);
  const choose = useCallback(
    (v: View) => {
      setChosen(v);
      try {
        window.localStorage.setItem(key, v);
      } catch {
        // Not remembered; the switch still works for this visit.
      }
    },
    [key],
  );
  return { chat, older, view, choose };
}

/**
 * Chat and Terminal for one pane: a switch on a phone, both side by side at a desktop width
 * (CSS). In the Chat view the open dialog's card (`ask`) sits under the chat, just above the
 * composer, so the person answers without switching; in the Terminal view the page keeps it
 * under the title.
 */
export function PaneViews({
  state,
  terminal,
  ask,
  pane,
  receipts,
}: {
  readonly state: PaneViewState;
  readonly terminal: ReactNode;
  readonly ask: ReactNode;
  readonly pane?: Pick<Pane, 'id' | 'token'> & { readonly harness?: Pane['harness'] };
  readonly receipts?: readonly SendReceipt[];
}) {
  const { chat, older, view, choose } = state;
  return (
    // No transcript (a shell, an agent whose log is not found): at a desktop width the mirror takes the whole row.
    // A shell never has a Chat: no switch for it.
    <div className={`pane-views shows-${view}${chat?.source == null ? ' pane-views-nochat' : ''}${pane?.harness === 'shell' ? ' pane-views-shell' : ''}`}>
      <div className="pane-views-switch" role="tablist" aria-label="View">
        {(['chat', 'terminal'] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className="pane-views-tab" onClick={() => choose(v)}>
            {v === 'chat' ? 'Chat' : 'Terminal'}
          </button>
        ))}
      </div>
      <div className="pane-views-chat" role="tabpanel" aria-label="Chat">
        <PaneChatView chat={chat} older={older} pane={pane} receipts={receipts} />
        {view === 'chat' ? ask : null}
      </div>
      <div className="pane-views-terminal" role="tabpanel" aria-label="Terminal">
        {terminal}
      </div>
    </div>
  );
}
