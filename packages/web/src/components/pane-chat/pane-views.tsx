import type { Pane } from '@collie/protocol';
import type { ReactNode } from 'react';
import { useCallback, useState } from 'react';
import { firstView } from '../../lib/pane-chat/words';
import { PaneChatView } from './pane-chat-view';
import { usePaneChat } from './use-pane-chat';

type View = 'chat' | 'terminal';

function stored(key: string): View | null {
  try {
    const v = window.localStorage.getItem(key);
    return v === 'chat' || v === 'terminal' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Chat and Terminal for one pane: a switch on a phone (Chat first when the agent's transcript is
 * found, the choice remembered per pane), both side by side at a desktop width (CSS).
 */
export function PaneViews({ paneId, terminal, pane }: { readonly paneId: string; readonly terminal: ReactNode; readonly pane?: Pick<Pane, 'id' | 'token'> }) {
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
  return (
    // No transcript (a shell, an agent whose log is not found): at a desktop width the mirror takes the whole row.
    <div className={`pane-views shows-${view}${chat?.source == null ? ' pane-views-nochat' : ''}`}>
      <div className="pane-views-switch" role="tablist" aria-label="View">
        {(['chat', 'terminal'] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className="pane-views-tab" onClick={() => choose(v)}>
            {v === 'chat' ? 'Chat' : 'Terminal'}
          </button>
        ))}
      </div>
      <div className="pane-views-chat" role="tabpanel" aria-label="Chat">
        <PaneChatView chat={chat} older={older} pane={pane} />
      </div>
      <div className="pane-views-terminal" role="tabpanel" aria-label="Terminal">
        {terminal}
      </div>
    </div>
  );
}
