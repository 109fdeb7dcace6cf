import { readFile } from 'node:fs/promises';
import { DevicesFile } from '@collie/protocol';
import { devicesCommand } from '../../bridge/src/commands/devices';
import { devicesFile } from '../../bridge/src/devices';

/** A paired device of a test's state dir, and the ways its clients present it. */
export interface TestDevice {
  readonly token: string;
  readonly name: string;
  readonly id: string;
  /** `{ authorization: 'Bearer …' }` for fetch and WebSocket clients. */
  readonly headers: { authorization: string };
  /** The device cookie as Playwright's `context.addCookies` takes it, for a page at `url`. */
  cookie(url: string): { name: string; value: string; url: string; httpOnly: true; sameSite: 'Strict' };
}

/**
 * Makes a device in `stateDir` exactly as `collie token --name <name>` does: through the running
 * bridge's devices socket, or in devices.json before the bridge starts. Tests reach the API
 * through it; nothing turns the device check off.
 *
 * @example
 * const device = await testDevice(state.path);
 * await using bridge = await startBridge(testBridgeOptions(tmux.tmpDir, state.path));
 * await fetch(`${bridge.url}/api/snapshot`, { headers: device.headers });
 */
export async function testDevice(stateDir: string, name = 'test', o: { watchOnly?: boolean } = {}): Promise<TestDevice> {
  const { reply } = await devicesCommand(stateDir, { op: 'token', name, ...(o.watchOnly ? { maySend: false } : {}) }, { url: 'http://127.0.0.1:0', publicUrl: null });
  if (reply.type !== 'token') throw new Error(`testDevice: ${reply.type === 'error' ? reply.error.message : reply.type}`);
  const stored = DevicesFile.parse(JSON.parse(await readFile(devicesFile(stateDir), 'utf8')));
  const token = reply.token;
  const cookieName = `collie_device_${stored.instance}`;
  return {
    token,
    name: reply.device.name,
    id: reply.device.id,
    headers: { authorization: `Bearer ${token}` },
    cookie: (url) => ({ name: cookieName, value: token, url, httpOnly: true, sameSite: 'Strict' }),
  };
}
