import { useClientState } from '../hooks/use-client';
import { useNow } from '../hooks/use-now';
import { formatDuration } from '../lib/duration';

/**
 * Time since `since` (epoch ms), ticking with the page's shared clock; frozen at the moment
 * the stream went down, since the bridge is no longer there to say the state still holds.
 */
export function Elapsed({ since, className }: { readonly since: number; readonly className?: string }) {
  const now = useNow();
  const { down } = useClientState();
  const at = down === null ? now : down.since;
  return (
    <span className={className ?? 'elapsed'} title={new Date(since).toLocaleString()}>
      {formatDuration(at - since)}
    </span>
  );
}
