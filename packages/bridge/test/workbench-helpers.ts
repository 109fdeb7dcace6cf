import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Upload } from '@collie/protocol';
import { testDevice, type TempDir, type TestDevice, type TmuxServer } from '@collie/testkit';
import { bridgeFor, type TestBridge, until } from './harness';

/** A 1×1 PNG: the bytes say image, whatever the name says. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** `POST /api/uploads?name=…` with raw bytes. */
export async function upload(bridge: TestBridge, name: string, bytes: Uint8Array, headers: Record<string, string> = bridge.device.headers, type = 'application/octet-stream'): Promise<Response> {
  return fetch(`${bridge.url}/api/uploads?name=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body: bytes });
}

export function sendFiles(bridge: TestBridge, paneId: string, body: unknown): Promise<Response> {
  return fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/send-files`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bridge.device.headers },
    body: JSON.stringify(body),
  });
}

/** Where the bridge keeps an upload (the state dir is under the real temp dir). */
export function pathOf(state: TempDir, u: Upload): string {
  return join(state.path, 'uploads', `${u.id}-${u.name}`);
}

const run = promisify(execFile);

/** One `git` process in `cwd`, with an author set, as the workbench tests make their repositories. */
export const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd });

/**
 * A bridge watching one pane (`cat` in `cwd`, a session of its own) and a watch-only device,
 * with `get(route)` reading that pane's workbench routes as the device: the set-up of the tests
 * that read a repository through the phone.
 */
export async function watchPaneIn(tmux: TmuxServer, stateDir: string, session: string, cwd: string): Promise<{ bridge: TestBridge; paneId: string; watcher: TestDevice; get: (route: string) => Promise<Response> }> {
  const paneId = `${tmux.name}:${await tmux.newSession(session, { cmd: 'cat', cwd })}`;
  const bridge = await bridgeFor(tmux.tmpDir, stateDir);
  const watcher = await testDevice(stateDir, 'watcher', { watchOnly: true });
  await until(bridge.hub, 'the pane', (h) => h.panes.get(paneId)?.cwd === cwd, 30_000);
  const get = (route: string) => fetch(`${bridge.url}/api/panes/${encodeURIComponent(paneId)}/${route}`, { headers: watcher.headers });
  return { bridge, paneId, watcher, get };
}
