import type { DurableItem } from '@collie/protocol';

/** The words of an item that search looks in. */
export function itemWords(it: DurableItem): string {
  switch (it.kind) {
    case 'tool':
      return `${it.name} ${it.input} ${it.output}`;
    case 'link':
      return `${it.label ?? ''} ${it.url}`;
    default:
      return it.text;
  }
}

/** Which view a pane opens in: Chat when its transcript is found, unless the person chose. */
export function firstView(stored: 'chat' | 'terminal' | null, hasTranscript: boolean): 'chat' | 'terminal' {
  return stored ?? (hasTranscript ? 'chat' : 'terminal');
}
