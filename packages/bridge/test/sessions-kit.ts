import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { SessionChat, SessionResumed, SessionsPage } from '@collie/protocol';
import { tempDir } from '@collie/testkit';
import type { TestBridge } from './harness';

/** A git repository in a temp folder (its real path), for a session's folder. */
export async function repoFolder(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const dir = await tempDir(prefix);
  await promisify(execFile)('git', ['init', '-q', '-b', 'main', dir.path]);
  return Object.assign(dir, { path: await realpath(dir.path) });
}

async function call<T>(bridge: TestBridge, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${bridge.url}${path}`, { ...init, headers: { ...bridge.device.headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const listSessions = (bridge: TestBridge, query = '') => call<SessionsPage>(bridge, `/api/sessions${query}`);
export const readSession = (bridge: TestBridge, agent: string, id: string) => call<SessionChat>(bridge, `/api/sessions/${agent}/${id}`);
export const resumeSession = (bridge: TestBridge, agent: string, id: string, launcher: string) =>
  call<SessionResumed>(bridge, `/api/sessions/${agent}/${id}/resume`, { method: 'POST', body: JSON.stringify({ launcher }) });

/** Items of a chat as `<kind> <text>`, for comparing. */
export const itemsOf = (chat: SessionChat) => chat.items.map((i) => `${i.kind} ${'text' in i ? i.text : ''}`);
