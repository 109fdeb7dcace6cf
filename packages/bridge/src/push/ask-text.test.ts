import { describe, expect, it } from 'vitest';
import { askLine } from '@collie/protocol';
import { makeRedactor } from '../redact';
import { paneAsk } from './ask-text';
import { bashCard, blocked } from './test-pane';

const mask = makeRedactor(true);

describe('the lock-screen answer of a permission push', () => {
  it('offers Deny, and Allow when the whole command is in the text; never an "always" option', () => {
    const a = paneAsk(blocked('t:%1', 'rm -rf ./build'), mask);
    expect(a.body).toContain('rm -rf ./build');
    expect(a.answer).toEqual({ pane: 't:%1', signature: 'sig-rm -rf ./build', deny: 2, allow: 1 });
    const card = bashCard('npm test');
    card.options = [
      { n: 1, label: "Yes, and don't ask again for npm commands", description: null, checked: null, freeText: false },
      { n: 2, label: 'No, and tell Claude what to do differently', description: null, checked: null, freeText: true },
    ];
    expect(paneAsk(blocked('t:%1', 'x', { card }), mask).answer).toEqual({ pane: 't:%1', signature: card.signature, deny: 2, allow: null });
  });

  it('no Allow when the command is cut; no answer at all for a picker', () => {
    const long = `echo ${'x'.repeat(400)}`;
    const a = paneAsk(blocked('t:%1', long), mask);
    expect(askLine(bashCard(long)).endsWith('…')).toBe(true);
    expect(a.answer).toMatchObject({ deny: 2, allow: null });
    const card = { ...bashCard('q'), kind: 'select' as const, title: 'Pick one', body: [], question: 'Which?' };
    expect(paneAsk(blocked('t:%1', 'q', { dialog: 'select', card }), mask).answer).toBeUndefined();
  });
});
