/**
 * The API in memory (`app.request`): gates, schemas, clear 4xx answers, and a fuzz that never
 * gets a 5xx. The gateway and SQLite are real; no runtime starts (no message is sent).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NerveErrorBody, SessionInfo } from '@collie/protocol';
import { tempDir, type TempDir } from '@collie/testkit';
import { SubagentSettings } from '../src/config/config';
import { Gateway } from '../src/gateway/gateway';
import { createApp } from '../src/http/app';
import { openDb } from '../src/store/db';
import { Store } from '../src/store/store';

let dir: TempDir;
let gateway: Gateway;
let store: Store;
let app: ReturnType<typeof createApp>;
const HOST = '127.0.0.1:9999';
const TOKEN = `nrv_${'ab'.repeat(24)}`;

beforeAll(async () => {
  dir = await tempDir('nerve-api-');
  store = new Store(openDb(join(dir.path, 'nerve.db')));
  const settings = SubagentSettings.parse({});
  gateway = new Gateway({ store, cwd: dir.path, model: 'claude-sonnet-4-5', env: {}, settings: () => settings });
  app = createApp({ gateway, hosts: () => new Set([HOST]), token: TOKEN });
});
afterAll(async () => {
  await gateway.close();
  store.db.close();
  await dir.remove();
});

const req = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  app.request(path, { method, headers: { host: HOST, 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers }, ...(body === undefined ? {} : { body }) });

async function error(res: Response): Promise<{ status: number; code: string; message: string }> {
  const b = NerveErrorBody.parse(await res.json());
  return { status: res.status, code: b.error.code, message: b.error.message };
}

describe('nerve api', () => {
  it('creates, lists and reads sessions', async () => {
    const res = await req('POST', '/api/sessions', JSON.stringify({ title: 'Mine' }));
    expect(res.status).toBe(201);
    const s = SessionInfo.parse(await res.json());
    expect(s).toMatchObject({ title: 'Mine', is_running: false, has_background_tasks: false, background_count: 0 });
    expect(((await (await req('GET', '/api/sessions')).json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
    expect((await req('GET', `/api/sessions/${s.session_id}/queue`)).status).toBe(200);
    expect(await (await req('POST', `/api/sessions/${s.session_id}/stop`, '{"scope":"turn"}')).json()).toEqual({ outcome: 'nothing_running', live_agents: [] });
  });

  it('answers bad input with a clear 4xx', async () => {
    const id = SessionInfo.parse(await (await req('POST', '/api/sessions', '{}')).json()).session_id;
    expect(await error(await req('POST', `/api/sessions/${id}/messages`, '{nope'))).toEqual({ status: 400, code: 'bad_json', message: 'nerve: the body is not JSON' });
    expect(await error(await req('POST', `/api/sessions/${id}/messages`, '{"text":""}'))).toEqual({ status: 400, code: 'bad_request', message: 'nerve: text: text is empty' });
    expect(await error(await req('POST', `/api/sessions/${id}/stop`, '{"scope":"everything"}'))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(await error(await req('POST', `/api/sessions/${id}/agents/ag_nothex/stop`, '{}'))).toEqual({ status: 400, code: 'bad_request', message: 'nerve: an agent id is ag_ followed by 12 hex digits' });
    expect(await error(await req('POST', `/api/sessions/${id}/agents/ag_000000000000/stop`, '{}'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await error(await req('GET', '/api/sessions/ses_missing'))).toEqual({ status: 404, code: 'not_found', message: 'nerve: no session ses_missing' });
    expect(await error(await req('PUT', `/api/sessions/${id}/queue/order`, '{"order":["q_x"]}'))).toEqual({ status: 400, code: 'bad_request', message: 'nerve: no queued message q_x' });
    expect(await error(await req('DELETE', `/api/sessions/${id}/queue/q_x`))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await error(await req('POST', `/api/sessions/${id}/archive?force=maybe`))).toMatchObject({ status: 400 });
    expect(await error(await req('POST', `/api/sessions/${id}/messages`, 'x'.repeat(300_000)))).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('keeps the Host and origin gates of the bridge', async () => {
    expect(await error(await req('GET', '/api/sessions', undefined, { host: 'evil.example:9999' }))).toMatchObject({ status: 403, code: 'forbidden_host' });
    expect(await error(await req('GET', '/api/sessions', undefined, { origin: 'http://evil.example' }))).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await error(await req('POST', '/api/sessions', '{}', { 'sec-fetch-site': 'cross-site' }))).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect((await req('GET', '/api/sessions', undefined, { origin: `http://${HOST}` })).status).toBe(200);
  });

  it('refuses a model switch and an archive while agents are live; delete cascades', async () => {
    const id = SessionInfo.parse(await (await req('POST', '/api/sessions', '{}')).json()).session_id;
    const s = gateway.sessions.get(id)!;
    // The runtime's own frames for a running background agent, as the SDK adapter hands them over.
    s.roster.ingest({ type: 'tool_call', toolUseId: 'toolu_1', name: 'Agent', input: { description: 'bg', prompt: 'p', run_in_background: true }, parentToolUseId: null });
    s.roster.ingest({ type: 'task_started', taskId: 't1', toolUseId: 'toolu_1', taskType: 'local_agent', description: 'bg', prompt: 'p', background: true, parentTaskId: null, ambient: false });
    const agent = s.roster.list()[0]!;
    const patch = await req('PATCH', `/api/sessions/${id}`, '{"model":"claude-opus-4"}');
    expect(await patch.clone().json()).toEqual({ error: { code: 'live_background_agents', message: 'nerve: a model switch waits until the background agents finish' }, live_agents: [agent.agent_id] });
    expect(patch.status).toBe(409);
    expect(await error(await req('POST', `/api/sessions/${id}/archive`))).toMatchObject({ status: 409, code: 'live_background_agents' });
    const agents = (await (await req('GET', `/api/sessions/${id}/agents`)).json()) as { agents: Array<{ agent_id: string }> };
    expect(agents.agents.map((a) => a.agent_id)).toEqual([agent.agent_id]);
    expect((await req('GET', `/api/sessions/${id}/agents/${agent.agent_id}/transcript`)).status).toBe(200);
    expect((await req('POST', `/api/sessions/${id}/archive?force=true`)).status).toBe(200);
    expect(s.roster.get(agent.agent_id)).toMatchObject({ status: 'interrupted', reason: 'archived' });
    expect((await req('DELETE', `/api/sessions/${id}`)).status).toBe(200);
    expect(store.agents(id)).toEqual([]);
    expect(store.transcript(agent.agent_id)).toEqual([]);
  });

  it('never answers a 5xx to hostile input (fuzz)', async () => {
    const id = SessionInfo.parse(await (await req('POST', '/api/sessions', '{}')).json()).session_id;
    const paths = [`/api/sessions/${id}/messages`, `/api/sessions/${id}/stop`, `/api/sessions/${id}/queue/order`, `/api/sessions/${id}`, '/api/sessions', `/api/sessions/${id}/agents/ag_123456789abc/stop`];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('POST', 'PUT', 'PATCH'),
        fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), fc.record({ text: fc.string(), scope: fc.string(), order: fc.array(fc.string()) }).map((v) => JSON.stringify(v))),
        async (path, method, body) => {
          const res = await req(method, path, body);
          expect(res.status).toBeLessThan(500);
          // A send that got through would start a runtime: the fuzz bodies carry no valid text + scope pair to do so.
        },
      ),
      { numRuns: 300 },
    );
  });
});
