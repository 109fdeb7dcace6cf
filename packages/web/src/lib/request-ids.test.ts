import { RequestId } from '@collie/protocol';
import { describe, expect, it } from 'vitest';
import { makeReceipt } from '../../test/fixtures';
import { RequestIds, newRequestId } from './request-ids';

function counter(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

const unsure = { kind: 'unsure', detail: 'offline' } as const;
const answered = { kind: 'receipt', receipt: makeReceipt({ requestId: 'id-1' }) } as const;
const refused = { kind: 'refused', code: 'bad_request', message: 'no' } as const;

describe('RequestIds', () => {
  it('gives each new action its own id', () => {
    const ids = new RequestIds(counter());
    expect(ids.take('a')).toBe('id-1');
    ids.settle('a', answered);
    expect(ids.take('a')).toBe('id-2');
    expect(ids.take('b')).toBe('id-3');
  });

  it('reuses the id when the same action is retried after a network error, until the bridge answers', () => {
    const ids = new RequestIds(counter());
    const first = ids.take('send hello');
    ids.settle('send hello', unsure);
    expect(ids.take('send hello')).toBe(first);
    ids.settle('send hello', unsure);
    expect(ids.take('send hello')).toBe(first);
    ids.settle('send hello', answered);
    expect(ids.take('send hello')).not.toBe(first);
  });

  it('starts over after a refusal, and never lends an unsure id to another action', () => {
    const ids = new RequestIds(counter());
    const a = ids.take('a');
    ids.settle('a', unsure);
    expect(ids.take('b')).not.toBe(a);
    ids.settle('a', refused);
    expect(ids.take('a')).not.toBe(a);
  });

  it('forgets the oldest unsure actions beyond its bound', () => {
    const ids = new RequestIds(counter());
    const first = ids.take('first');
    ids.settle('first', unsure);
    for (let i = 0; i < 40; i++) {
      ids.take(`other-${i}`);
      ids.settle(`other-${i}`, unsure);
    }
    expect(ids.take('first')).not.toBe(first);
  });
});

describe('newRequestId', () => {
  it('makes ids the bridge accepts, a different one each time', () => {
    const a = newRequestId();
    expect(RequestId.safeParse(a).success).toBe(true);
    expect(newRequestId()).not.toBe(a);
  });
});
