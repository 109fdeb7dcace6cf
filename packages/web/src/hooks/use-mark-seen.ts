import type { Pane } from '@collie/protocol';
import { useEffect } from 'react';
import { markSeen } from '../lib/api';
import { usePageVisible } from './use-page-visible';

/**
 * Tells the bridge the pane was opened: when its page opens, when the person comes back to
 * the page, and when a turn ends while they are watching it (so it does not stay "done").
 */
export function useMarkSeen(id: string, pane: Pane | undefined): void {
  const visible = usePageVisible();
  const doneSince = pane?.state === 'done' ? pane.since : null;
  useEffect(() => {
    if (visible) void markSeen(id);
  }, [id, visible, doneSince]);
}
