import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, ReceiptBody, UploadAnswer } from '@collie/protocol';
import { startTmux, tempDir, type TempDir, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';
import { finalReceipt } from './send-helpers';
import { PNG_1X1, pathOf, sendFiles, upload } from './workbench-helpers';

async function refusal(res: Response): Promise<[number, string, string]> {
  const body = ErrorBody.parse(await res.json());
  return [res.status, body.error.code, body.error.message];
}

describe('attachments over the API (a real bridge, a shell pane running cat)', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let bridge: TestBridge;
  let paneId: string;
  let tmuxPane: string;

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    tmuxPane = await tmux.newSession('uploads', { cmd: 'cat' });
    bridge = await bridgeFor(tmux.tmpDir, state.path);
    paneId = `${tmux.name}:${tmuxPane}`;
    await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId), 30_000);
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    await state?.remove();
  });

  it('stores an image in <state>/uploads (0700), the file 0600, named by the bytes, sanitised', async () => {
    const res = await upload(bridge, 'Screen shot 1.jpeg', PNG_1X1);
    expect(res.status).toBe(200);
    const { upload: u } = UploadAnswer.parse(await res.json());
    expect(u).toMatchObject({ name: 'Screen_shot_1.png', type: 'image/png', size: PNG_1X1.length });
    const path = join(state.path, 'uploads', `${u.id}-${u.name}`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path))).mode & 0o777).toBe(0o700);
    expect(Date.parse(u.expiresAt) - Date.now()).toBeGreaterThan(47 * 3600_000);
  });

  it('refuses oversize, wrong bytes and hostile names, each with its own error', async () => {
    expect(await refusal(await upload(bridge, 'big.png', Buffer.concat([PNG_1X1, Buffer.alloc(10 * 1024 * 1024)])))).toEqual([413, 'upload_too_large', 'uploads: the file is over 10 MB (10.0 MB)']);
    expect(await refusal(await upload(bridge, 'cat.png', Buffer.from('\x7fELF\x02\x01\x01\x00\x00\x00', 'latin1')))).toEqual([
      415,
      'upload_type',
      'uploads: the bytes are not an image (PNG, JPEG, GIF, WebP), a PDF or UTF-8 text',
    ]);
    expect(await refusal(await upload(bridge, '../../etc/passwd', Buffer.from('root:x:0:0\n')))).toEqual([400, 'bad_name', 'uploads: a file name may not hold a path (/ or \\)']);
    expect(await refusal(await upload(bridge, 'a\u0000b.png', PNG_1X1))).toEqual([400, 'bad_name', 'uploads: a file name may not hold control characters']);
    expect(await refusal(await upload(bridge, 'report\u202Egnp.exe', PNG_1X1))).toEqual([400, 'bad_name', 'uploads: a file name may not hold direction marks or invisible characters']);
    expect(await refusal(await upload(bridge, '..', PNG_1X1))).toEqual([400, 'bad_name', 'uploads: a file name may not start with a dot']);
    expect((await refusal(await upload(bridge, 'x.png', PNG_1X1, bridge.device.headers, 'application/json')))[1]).toBe('unsupported_media_type');
    expect((await upload(bridge, 'x.png', PNG_1X1, {})).status).toBe(401);
    const noName = await fetch(`${bridge.url}/api/uploads`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...bridge.device.headers }, body: PNG_1X1 });
    expect((await refusal(noName))[1]).toBe('bad_request');
  });

  it('any name from the phone: a 400 bad_name, or a file inside the uploads dir (never a 5xx)', async () => {
    const dir = join(state.path, 'uploads');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('../x.png', '..\\..\\x', '/etc/passwd', 'a/../../b', '%2e%2e%2fx', '\u200Fx.png', '.env')), async (name) => {
        const res = await upload(bridge, name, PNG_1X1);
        expect(res.status, name).toBeLessThan(500);
        if (res.status === 200) {
          const { upload: u } = UploadAnswer.parse(await res.json());
          expect(u.name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/);
          expect((await stat(join(dir, `${u.id}-${u.name}`))).isFile()).toBe(true);
        } else {
          expect((await refusal(res))[1]).toMatch(/^(bad_name|bad_request)$/);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a message with files types their paths and the text through the send protocol', async () => {
    const a = UploadAnswer.parse(await (await upload(bridge, 'one.png', PNG_1X1)).json()).upload;
    const b = UploadAnswer.parse(await (await upload(bridge, 'notes.md', Buffer.from('# notes\n'))).json()).upload;
    const res = await sendFiles(bridge, paneId, { text: 'look at these', attachments: [a.id, b.id], request_id: 'files-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    const receipt = ReceiptBody.parse(await res.json()).receipt;
    expect(receipt.requestId).toBe('files-1');
    // The receipt names the files, never the bridge's paths.
    expect(receipt.summary).toBe('one.png, notes.md · look at these');
    expect((await finalReceipt(bridge, 'files-1')).outcome).toBe('typed into the pane');
    // A shell has no attachment syntax: the bare paths, after the text.
    const want = `look at these ${pathOf(state, a)} ${pathOf(state, b)}`;
    // cat echoes the line as typed, then prints it back: the exact text arrived.
    await tmux.waitForScreen(tmuxPane, (s) => s.replaceAll('\n', '').split(want).length >= 3, 30_000);
  });

  it('refuses unknown uploads, malformed ids and unknown panes with clear errors', async () => {
    expect(await refusal(await sendFiles(bridge, paneId, { text: 'x', attachments: ['u_0000000000000000'], request_id: 'files-2' }))).toEqual([
      404,
      'not_found',
      "uploads: no upload 'u_0000000000000000' (removed after 48 h, or never stored)",
    ]);
    expect((await refusal(await sendFiles(bridge, paneId, { text: 'x', attachments: ['../../etc/passwd'], request_id: 'files-3' })))[1]).toBe('bad_request');
    expect((await refusal(await sendFiles(bridge, paneId, { text: 'x', attachments: [], request_id: 'files-4' })))[1]).toBe('bad_request');
    expect((await refusal(await sendFiles(bridge, 'nope:%99', { text: 'x', attachments: ['u_0000000000000000'], request_id: 'files-5' })))[1]).toBe('not_found');
  });

  it('gives a stored picture back by id only, typed by its bytes; no other file, no path, no device: nothing', async () => {
    const a = UploadAnswer.parse(await (await upload(bridge, 'shot.png', PNG_1X1)).json()).upload;
    const get = (id: string, headers: Record<string, string> = bridge.device.headers) => fetch(`${bridge.url}/api/uploads/${id}`, { headers });
    const res = await get(a.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_1X1)).toBe(true);
    // Text and PDFs are stored for the agent, not served back.
    const text = UploadAnswer.parse(await (await upload(bridge, 'notes.md', Buffer.from('# notes\n'))).json()).upload;
    expect((await refusal(await get(text.id)))[0]).toBe(404);
    expect((await refusal(await get('u_0000000000000000')))[1]).toBe('not_found');
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', `${a.id}-shot.png`, '%2Fetc%2Fpasswd', 'u_0123']) expect((await get(bad)).status, bad).toBe(404);
    expect((await get(a.id, {})).status).toBe(401);
  });
});
