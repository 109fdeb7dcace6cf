import { OUTCOME } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { ASK_CHANGED_WORDS, SENDING_WORDS, UNSURE_WORDS, attemptLine, receiptLine } from './receipt-words';

describe('receiptLine', () => {
  it("shows the bridge's outcome words and follows the receipt until it is final", () => {
    expect(receiptLine(makeReceipt({ requestId: 'a', state: 'held', outcome: OUTCOME.heldWorking, final: false }))).toEqual({
      words: 'held: agent working',
      tone: 'pending',
      moving: true,
    });
    expect(receiptLine(makeReceipt({ requestId: 'a', state: 'typed', outcome: OUTCOME.typed }))).toEqual({
      words: 'typed into the pane',
      tone: 'ok',
      moving: false,
    });
    expect(receiptLine(makeReceipt({ requestId: 'a', state: 'not_sent', outcome: OUTCOME.draft, final: true }))).toMatchObject({
      words: 'not sent: draft present',
      tone: 'bad',
    });
    expect(receiptLine(makeReceipt({ requestId: 'a', state: 'not_submitted', outcome: OUTCOME.notSubmitted, final: true })).tone).toBe('warn');
  });

  it('says what to do when the ask changed under the tap', () => {
    const line = receiptLine(makeReceipt({ requestId: 'a', kind: 'answer', state: 'not_sent', outcome: OUTCOME.askChanged, final: true }));
    expect(line.words).toBe('This ask changed. Read it again, then tap an answer.');
    expect(line.words).toBe(ASK_CHANGED_WORDS);
  });
});

describe('attemptLine', () => {
  it('reads "sending" while the call is out, then the receipt', () => {
    expect(attemptLine(null, null)).toEqual({ words: SENDING_WORDS, tone: 'pending', moving: true });
    const typed = makeReceipt({ requestId: 'a' });
    expect(attemptLine(null, typed).words).toBe('typed into the pane');
    expect(attemptLine({ kind: 'receipt', receipt: typed }, null).words).toBe('typed into the pane');
  });

  it("gives the bridge's reason for a refusal, without its log prefix", () => {
    expect(attemptLine({ kind: 'refused', code: 'not_found', message: "bridge: no pane 'default:%9'" }, null)).toEqual({
      words: "Refused: no pane 'default:%9'",
      tone: 'bad',
      moving: false,
    });
    expect(attemptLine({ kind: 'refused', code: 'http_400', message: '' }, null).words).toBe('The bridge refused this.');
  });

  it('offers a retry when the call got no answer', () => {
    expect(attemptLine({ kind: 'unsure', detail: 'offline' }, null).words).toBe(UNSURE_WORDS);
  });
});
