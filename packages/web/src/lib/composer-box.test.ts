import { MAX_SEND_CHARS } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { boxAfter, sendBlocker, textToSend } from './composer-box';

describe('composer box', () => {
  it('sends the text without trailing blank lines, and refuses an empty or oversized box', () => {
    expect(textToSend('fix it\n\n  ')).toBe('fix it');
    expect(textToSend('  indented\nline two\n')).toBe('  indented\nline two');
    expect(sendBlocker(' \n ')).toBe('Write something to send.');
    expect(sendBlocker('x'.repeat(MAX_SEND_CHARS + 1))).toMatch(/^Too long/);
    expect(sendBlocker('go')).toBeNull();
  });

  it('empties the box once the text is typed, and keeps it when it was not sent', () => {
    const typed = makeReceipt({ requestId: 'a', state: 'typed' });
    const unsubmitted = makeReceipt({ requestId: 'a', state: 'not_submitted', outcome: 'typed, not submitted', final: true });
    const refused = makeReceipt({ requestId: 'a', state: 'not_sent', outcome: 'not sent: draft present', final: true });
    const held = makeReceipt({ requestId: 'a', state: 'held', outcome: 'held: dialog open', final: false });
    expect(boxAfter('run it\n', 'run it', typed)).toBe('');
    expect(boxAfter('run it', 'run it', unsubmitted)).toBe('');
    expect(boxAfter('run it', 'run it', refused)).toBe('run it');
    expect(boxAfter('run it', 'run it', held)).toBe('run it');
  });

  it('keeps what the person wrote after sending', () => {
    expect(boxAfter('next thing', 'run it', makeReceipt({ requestId: 'a', state: 'typed' }))).toBe('next thing');
  });
});
