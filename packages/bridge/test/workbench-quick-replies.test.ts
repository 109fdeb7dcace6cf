import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, QuickReplies } from '@collie/protocol';
import { startTmux, tempDir, testBridgeOptions, testDevice, type TempDir, type TestDevice, type TmuxServer } from '@collie/testkit';
import { startBridge, type Bridge } from '../src/bridge';

describe('quick replies in <config>/quick-replies.json', () => {
  let tmux: TmuxServer;
  let state: TempDir;
  let bridge: Bridge;
  let device: TestDevice;
  let config: string;

  beforeAll(async () => {
    tmux = await startTmux();
    state = await tempDir('collie-state');
    config = join(state.path, 'config');
    device = await testDevice(state.path);
    bridge = await startBridge({ ...testBridgeOptions(tmux.tmpDir, state.path), configDir: config });
  }, 60_000);

  afterAll(async () => {
    await bridge?.stop();
    await tmux?.kill();
    await state?.remove();
  });

  const get = async () => fetch(`${bridge.url}/api/quick-replies`, { headers: device.headers });
  const post = async (body: unknown) => fetch(`${bridge.url}/api/quick-replies`, { method: 'POST', headers: { 'content-type': 'application/json', ...device.headers }, body: JSON.stringify(body) });

  it('serves the defaults, saves replies (0600, atomically) and serves them back', async () => {
    expect(QuickReplies.parse(await (await get()).json()).replies[0]).toEqual({ label: 'Continue', text: 'Continue.' });
    const mine = { replies: [{ label: 'Ship it', text: 'Looks good: commit and push.' }] };
    expect((await post(mine)).status).toBe(200);
    expect(JSON.parse(await readFile(join(config, 'quick-replies.json'), 'utf8'))).toEqual(mine);
    expect((await stat(join(config, 'quick-replies.json'))).mode & 0o777).toBe(0o600);
    expect(QuickReplies.parse(await (await get()).json())).toEqual(mine);
  });

  it('refuses bad bodies, and says so when the file itself is broken', async () => {
    for (const bad of [{ replies: [{ label: '', text: 'x' }] }, { replies: Array.from({ length: 21 }, () => ({ label: 'a', text: 'b' })) }, { replies: [{ label: 'a', text: 'b', extra: 1 }] }]) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(ErrorBody.parse(await res.json()).error.code).toBe('bad_request');
    }
    await writeFile(join(config, 'quick-replies.json'), '{ not json');
    const res = await get();
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(await res.json()).error.message).toMatch(/quick-replies\.json is not valid JSON; fix or remove it$/);
  });
});
