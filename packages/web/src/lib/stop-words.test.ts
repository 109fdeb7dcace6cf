import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { stopWords } from './stop-words';

describe('stopWords', () => {
  const pressed = makeReceipt({ requestId: 'r1', kind: 'keys', state: 'typed', outcome: 'pressed' });
  it('says Stopped only once the agent no longer works', () => {
    expect(stopWords(null, null, true)).toBeNull();
    expect(stopWords({ words: 'typing', tone: 'pending', moving: true }, null, true)).toBe('Stopping…');
    expect(stopWords({ words: 'pressed', tone: 'ok', moving: false }, pressed, false)).toBe('Stopped');
    expect(stopWords({ words: 'pressed', tone: 'ok', moving: false }, pressed, true)).toBe('Pressed Stop; still working');
  });
  it('says what happened instead when the key was not pressed', () => {
    const gone = makeReceipt({ requestId: 'r2', kind: 'keys', state: 'not_sent', outcome: 'not sent: pane gone' });
    expect(stopWords({ words: 'not sent: pane gone', tone: 'bad', moving: false }, gone, false)).toBe('not sent: pane gone');
  });
});
