import { useNow } from '../hooks/use-now';
import { formatDuration } from '../lib/duration';

/** Time since `since` (epoch ms), ticking with the page's shared clock. */
export function Elapsed({ since, className }: { readonly since: number; readonly className?: string }) {
  const now = useNow();
  return (
    <span className={className ?? 'elapsed'} title={new Date(since).toLocaleString()}>
      {formatDuration(now - since)}
    </span>
  );
}
