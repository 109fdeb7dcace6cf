import type { Pane } from '@collie/protocol';
import { usageFrom, usageLine } from '../lib/usage-words';

/** The pane's model and usage under its title: `opus-4.5 · context 72 % · 1.2 M tokens · $3.10`. */
export function UsageLine({ pane }: { readonly pane: Pane }) {
  const u = pane.usage;
  if (!u) return null;
  const line = usageLine(u);
  return line ? (
    <p className="pane-usage" title={usageFrom(u, pane.harness)}>
      {line}
    </p>
  ) : null;
}

/** Where the usage figures come from, for the pane's details. */
export function UsageFrom({ pane }: { readonly pane: Pane }) {
  return pane.usage ? <p className="pane-usage-from">{usageFrom(pane.usage, pane.harness)}</p> : null;
}
