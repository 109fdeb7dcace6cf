import { MAY_NOT_SEND_WORDS } from '@collie/protocol';

/**
 * The one sentence a watch-only device sees where a send, an answer or a message would be
 * (the bridge refuses them anyway, `device_may_not_send`). Plain text, announced politely.
 */
export function MayNotSend({ className }: { readonly className?: string }) {
  return (
    <p className={`may-not-send${className ? ` ${className}` : ''}`} role="status">
      {MAY_NOT_SEND_WORDS}
    </p>
  );
}
