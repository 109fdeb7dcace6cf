import type { Pane } from '@collie/protocol';
import { labelParts } from '../lib/pane-words';

/**
 * A pane's label in two parts that wrap apart: a long repo name is cut in the middle, and the
 * branch keeps its own line rather than being dropped.
 */
export function PaneLabel({ pane }: { readonly pane: Pick<Pane, 'label' | 'harness' | 'cwd' | 'named'> }) {
  const { name, branch } = labelParts(pane);
  return (
    <>
      <span className="label-name" title={name}>
        {middleCut(name)}
      </span>
      {branch === '' ? null : <span className="label-branch">{branch}</span>}
    </>
  );
}

/** Names beyond this many characters keep their start and end, joined by an ellipsis. */
const MAX_NAME = 28;

function middleCut(text: string): string {
  if (text.length <= MAX_NAME) return text;
  const keep = Math.floor((MAX_NAME - 1) / 2);
  return `${text.slice(0, keep)}…${text.slice(text.length - keep)}`;
}
