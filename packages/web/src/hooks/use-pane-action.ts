import type { SendReceipt } from '@collie/protocol';
import { useCallback, useRef, useState } from 'react';
import type { ActionResult } from '../lib/action-result';
import { postPaneRequest } from '../lib/actions-api';
import { type PaneRequest, actionKey } from '../lib/pane-request';
import { NO_CONNECTION, type StatusLine, attemptLine } from '../lib/receipt-words';
import { findReceipt, latest } from '../lib/receipts';
import { rememberSent } from '../lib/edit-bus';
import { RequestIds, newRequestId } from '../lib/request-ids';
import { useClientState } from './use-client';

/** One page, one memory of request ids: a retry after a drop reuses its id wherever it is tapped. */
const requestIds = new RequestIds(newRequestId);

/** The last thing one control sent: `result` is null while the call is out. */
export interface Attempt {
  readonly requestId: string;
  readonly request: PaneRequest;
  readonly result: ActionResult | null;
}

export interface PaneAction {
  readonly attempt: Attempt | null;
  /** The call is out: the control that sent it waits. */
  readonly busy: boolean;
  /** The freshest receipt of the attempt: the call's own, or a later one from the events. */
  readonly receipt: SendReceipt | null;
  readonly line: StatusLine | null;
  run(request: PaneRequest): void;
  /** Sends the last request again, with its request id when the first call ended unsure. */
  retry(): void;
  dismiss(): void;
}

/**
 * One control's sends to a pane (the composer, the keys pad, the card): one call at a time,
 * its receipt followed live from the model's `send.updated` events.
 */
export function usePaneAction(paneId: string): PaneAction {
  const { model, connection } = useClientState();
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const out = useRef(false);
  const live = useRef(connection === 'live');
  live.current = connection === 'live';

  const run = useCallback(
    (request: PaneRequest) => {
      if (out.current) return;
      // No connection to the bridge: nothing leaves the phone, and it is said at once (the
      // composer keeps its text: only a final receipt empties it).
      if (!live.current) {
        setAttempt({ requestId: newRequestId(), request, result: { kind: 'refused', code: NO_CONNECTION, message: '' } });
        return;
      }
      out.current = true;
      const key = actionKey(paneId, request);
      const requestId = requestIds.take(key);
      if (request.kind === 'text') rememberSent(requestId, request.text);
      setAttempt({ requestId, request, result: null });
      void postPaneRequest(paneId, request, requestId).then((result) => {
        requestIds.settle(key, result);
        out.current = false;
        setAttempt((now) => (now?.requestId === requestId ? { ...now, result } : now));
      });
    },
    [paneId],
  );

  const retry = useCallback(() => {
    if (attempt) run(attempt.request);
  }, [attempt, run]);
  const dismiss = useCallback(() => setAttempt(null), []);

  const own = attempt?.result?.kind === 'receipt' ? attempt.result.receipt : null;
  const followed = attempt && model ? findReceipt(model.sends, paneId, attempt.requestId) : null;
  const receipt = latest(own, followed);
  const line = attempt ? attemptLine(attempt.result, receipt) : null;
  return { attempt, busy: attempt !== null && attempt.result === null, receipt, line, run, retry, dismiss };
}
