import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiptBody, UploadAnswer } from '@collie/protocol';
import { plainReply, type ClaudePane, type MessagesApi } from '@collie/testkit';
import type { TestBridge } from './harness';
import { liveClaude, type LiveClaude } from './live-rig';
import { finalReceipt } from './send-helpers';
import { PNG_1X1, sendFiles, upload } from './workbench-helpers';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The content blocks of the last user message of a Messages API body (tool results and text included). */
function lastUserBlocks(body: unknown): Json[] {
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return last && Array.isArray(last.content) ? last.content.filter(isObject) : [];
}

describe('an attachment reaches the real Claude Code TUI as an image', () => {
  let rig: LiveClaude;
  let api: MessagesApi, claude: ClaudePane, bridge: TestBridge, id: string;

  beforeAll(async () => {
    rig = await liveClaude();
    ({ api, claude, bridge, id } = rig);
  }, 90_000);

  afterAll(() => rig?.[Symbol.asyncDispose]());

  it('the uploaded PNG is typed as its path with the text, and the scripted API gets an image block', async () => {
    const u = UploadAnswer.parse(await (await upload(bridge, 'screen shot.png', PNG_1X1)).json()).upload;
    api.script(plainReply('A single pixel.'));
    const res = await sendFiles(bridge, id, { text: 'what is in this picture?', attachments: [u.id], request_id: 'claude-files-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    ReceiptBody.parse(await res.json());
    const done = await finalReceipt(bridge, 'claude-files-1', 60_000);
    expect(done.outcome).toBe('typed into the pane');
    const req = await api.waitForRequest((q) => q.kind === 'main' && lastUserBlocks(q.body).some((b) => b.type === 'image'), 60_000);
    const blocks = lastUserBlocks(req.body);
    const image = blocks.find((b) => b.type === 'image');
    expect(isObject(image?.source) && image.source.media_type).toBe('image/png');
    expect(req.prompt).toContain('what is in this picture?');
    await claude.waitForScreen((s) => s.includes('A single pixel.'), 30_000);
  });
});
