import type { Pane } from '@collie/protocol';
import { useStoredFlag } from '../hooks/use-stored-flag';
import { useMaySend } from '../hooks/use-client';
import { MayNotSend } from './may-not-send';
import { Composer } from './composer';
import { KeysPad } from './keys-pad';

/** Remembered across visits: whether the person keeps the keys pad open. */
const KEYS_OPEN_KEY = 'collie.keys-pad-open';
const KEYS_ID = 'keys-pad';

/**
 * The foot of the pane page, always in reach: the keys pad when open, and the composer. While
 * the agent asks, it stays at the page's end instead of over it: a send would wait for the
 * answer anyway, and with large text the card's first answer must not be under the dock.
 */
export function ComposerDock({ paneId, pane, dockRef }: { readonly paneId: string; readonly pane: Pane | undefined; readonly dockRef?: (el: HTMLElement | null) => void }) {
  const [keysOpen, setKeysOpen] = useStoredFlag(KEYS_OPEN_KEY, false);
  const gone = pane === undefined;
  // A watch-only device: no composer and no keys, the sentence in their place.
  if (!useMaySend()) {
    return (
      <footer className="dock" ref={dockRef}>
        <MayNotSend />
      </footer>
    );
  }
  return (
    <footer className={`dock${pane?.card ? ' dock-static' : ''}`} ref={dockRef}>
      {keysOpen && !gone ? <KeysPad paneId={paneId} id={KEYS_ID} working={pane.state === 'working'} /> : null}
      <Composer
        paneId={paneId}
        disabledReason={gone ? 'This pane is gone: there is nothing to send to.' : null}
        paneHasDraft={pane !== undefined && pane.draft !== null}
        menuOpen={pane?.dialog === 'menu'}
        placeholder={pane?.harness === 'shell' ? 'Type a command for the shell' : 'Message the agent'}
        quickReplies={pane?.harness !== 'shell'}
        keysOpen={keysOpen && !gone}
        keysId={KEYS_ID}
        onToggleKeys={() => setKeysOpen(!keysOpen)}
      />
    </footer>
  );
}
