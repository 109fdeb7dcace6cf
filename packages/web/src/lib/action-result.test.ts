import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { readActionAnswer } from './action-result';

describe('readActionAnswer', () => {
  it('reads a receipt from a 200', () => {
    const receipt = makeReceipt({ requestId: 'r1', state: 'held', outcome: 'held: agent working', final: false });
    expect(readActionAnswer(200, { receipt })).toEqual({ kind: 'receipt', receipt });
  });

  it("takes a 4xx error body as the bridge's refusal", () => {
    const body = { error: { code: 'not_found', message: "bridge: no pane 'default:%9'" } };
    expect(readActionAnswer(404, body)).toEqual({ kind: 'refused', code: 'not_found', message: "bridge: no pane 'default:%9'" });
    expect(readActionAnswer(400, null)).toMatchObject({ kind: 'refused', code: 'http_400' });
  });

  it('is unsure of a 5xx or a 200 without a receipt: the request may have arrived', () => {
    expect(readActionAnswer(500, { error: { code: 'internal', message: 'x' } }).kind).toBe('unsure');
    expect(readActionAnswer(502, null).kind).toBe('unsure');
    expect(readActionAnswer(200, { ok: true }).kind).toBe('unsure');
    expect(readActionAnswer(200, null).kind).toBe('unsure');
  });
});
