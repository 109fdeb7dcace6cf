import { useEffect, useRef } from 'react';
import type { PaneAction } from '../../hooks/use-pane-action';
import { boxAfter } from '../../lib/composer-box';
import type { Attachments } from './use-attachments';

/**
 * Once a message with files is final: if it reached the pane, its files leave the composer
 * and its text leaves the box (as a text send's does); if not, both stay for another try.
 */
export function useFilesSettled(action: PaneAction, files: Attachments, setBox: (f: (now: string) => string) => void): void {
  const settled = useRef<string | null>(null);
  const { attempt, receipt } = action;
  useEffect(() => {
    if (!attempt || attempt.request.kind !== 'files' || !receipt?.final || settled.current === attempt.requestId) return;
    settled.current = attempt.requestId;
    const { text, attachments } = attempt.request;
    if (receipt.state === 'typed' || receipt.state === 'not_submitted') files.sent(attachments);
    setBox((now) => boxAfter(now, text, receipt));
  }, [attempt, receipt, files, setBox]);
}
