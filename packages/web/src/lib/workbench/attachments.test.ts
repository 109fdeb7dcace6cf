import { describe, expect, it } from 'vitest';
import type { Upload } from '@collie/protocol';
import { attachmentsReducer, attachmentsToSend, room, type Attachment } from './attachments';
import { readUploadAnswer, sizeWords } from './uploads-api';

const up = (id: string, name: string): Upload => ({ id, name, type: 'image/png', size: 10, expiresAt: '2026-12-05T00:00:00.000Z' });

describe('the composer attachments', () => {
  it('go uploading → ready (with the bridge\'s name) or failed, and leave once sent', () => {
    let list: readonly Attachment[] = [];
    list = attachmentsReducer(list, { type: 'added', key: 'a1', name: 'Shot 1.png', size: 10 });
    list = attachmentsReducer(list, { type: 'added', key: 'a2', name: 'x.exe', size: 10 });
    expect(attachmentsToSend(list)).toEqual({ ids: [], blocker: 'Waiting for the files to upload.' });
    list = attachmentsReducer(list, { type: 'settled', key: 'a1', result: { ok: true, upload: up('u_0000000000000001', 'Shot_1.png') } });
    list = attachmentsReducer(list, { type: 'settled', key: 'a2', result: { ok: false, message: 'x.exe: not an image' } });
    expect(list.map((a) => [a.name, a.state])).toEqual([
      ['Shot_1.png', 'ready'],
      ['x.exe', 'failed'],
    ]);
    expect(attachmentsToSend(list).blocker).toBe('Remove the files that failed to upload.');
    list = attachmentsReducer(list, { type: 'removed', key: 'a2' });
    expect(attachmentsToSend(list)).toEqual({ ids: ['u_0000000000000001'], blocker: null });
    list = attachmentsReducer(list, { type: 'added', key: 'a3', name: 'later.png', size: 1 });
    list = attachmentsReducer(list, { type: 'sent', ids: ['u_0000000000000001'] });
    expect(list.map((a) => a.key)).toEqual(['a3']);
    expect(room(list)).toBe(9);
  });

  it('reads the bridge\'s answers: an upload, its refusal in words, or a garbled body', () => {
    expect(readUploadAnswer('a.png', 200, { upload: up('u_0000000000000002', 'a.png') })).toMatchObject({ ok: true });
    expect(readUploadAnswer('big.png', 413, { error: { code: 'upload_too_large', message: 'uploads: the file is over 10 MB (12.0 MB)' } })).toEqual({
      ok: false,
      message: 'big.png: the file is over 10 MB (12.0 MB)',
    });
    expect(readUploadAnswer('a.png', 200, { upload: { id: '../x' } })).toEqual({ ok: false, message: 'a.png: the bridge answered without an upload' });
    expect(readUploadAnswer('a.png', 502, null)).toEqual({ ok: false, message: 'a.png: the bridge answered 502' });
    expect([sizeWords(12), sizeWords(2048), sizeWords(3 * 1048576)]).toEqual(['12 B', '2 KB', '3.0 MB']);
  });
});
