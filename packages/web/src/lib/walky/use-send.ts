import type { WalkyMessage, WalkyPhoneSend } from '@collie/protocol';
import { useState } from 'react';
import { postWalkySend } from './api';
import { rememberSent, useWalky } from './store';

export interface WalkySend {
  /** The message as it stands now (follows `walky.updated` to its final word), or null. */
  readonly message: WalkyMessage | null;
  /** Why the bridge took nothing (no answer, a bad request), in words. */
  readonly error: string | null;
  readonly busy: boolean;
  send(req: WalkyPhoneSend): Promise<WalkyMessage | null>;
  dismiss(): void;
}

/** One operator's message from this page and its receipt, followed live. */
export function useWalkySend(): WalkySend {
  const walky = useWalky();
  const [sent, setSent] = useState<WalkyMessage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = sent && walky.phase === 'ready' ? (walky.messages.find((m) => m.id === sent.id) ?? sent) : sent;
  return {
    message: latest,
    error,
    busy,
    async send(req) {
      setBusy(true);
      setError(null);
      const got = await postWalkySend(req);
      setBusy(false);
      if (!got.ok) {
        setError(got.message);
        return null;
      }
      rememberSent(got.value.message);
      setSent(got.value.message);
      return got.value.message;
    },
    dismiss() {
      setSent(null);
      setError(null);
    },
  };
}
