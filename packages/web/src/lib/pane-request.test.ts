import { AnswerRequest, KeysRequest, ReviewRequest, SendFilesRequest, SendRequest } from '@collie/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PaneRequest, actionKey, requestBody, requestPath } from './pane-request';

const requests: PaneRequest[] = [
  { kind: 'text', text: 'run the tests' },
  { kind: 'keys', keys: ['Escape'] },
  { kind: 'keys', keys: ['Stop'] },
  { kind: 'answer', signature: 'sig-1', option: 2 },
  { kind: 'toggle', signature: 'sig-1', toggle: [1, 3] },
  { kind: 'toggle', signature: 'sig-1', toggle: [] },
  { kind: 'files', text: 'run the tests', attachments: ['u_00000000000000a1'] },
  { kind: 'files', text: '', attachments: ['u_00000000000000a1', 'u_00000000000000a2'] },
  { kind: 'review', comments: [{ path: 'src/a.ts', line: 3, side: 'new', code: 'x', text: 'why?' }] },
];

describe('requestBody', () => {
  it('builds bodies the bridge schemas accept, on the right route', () => {
    const schema = { send: SendRequest, keys: KeysRequest, answer: AnswerRequest, 'send-files': SendFilesRequest, review: ReviewRequest };
    for (const request of requests) {
      const body = requestBody(request, 'b5a9c1e2-0000-4000-8000-000000000001');
      expect(schema[requestPath(request)].safeParse(body).success, JSON.stringify(body)).toBe(true);
    }
  });
});

describe('actionKey', () => {
  it('tells apart every different action, and only those', () => {
    const keys = requests.map((r) => actionKey('s:%1', r));
    expect(new Set(keys).size).toBe(requests.length);
    expect(actionKey('s:%2', requests[0]!)).not.toBe(keys[0]);
    expect(actionKey('s:%1', { kind: 'text', text: 'run the tests' })).toBe(keys[0]);
  });

  it('never confuses two texts, however they are written', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(actionKey('s:%1', { kind: 'text', text: a })).not.toBe(actionKey('s:%1', { kind: 'text', text: b }));
      }),
    );
  });
});
