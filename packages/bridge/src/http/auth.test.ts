import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '@collie/protocol';
import { DeviceStore } from '../devices';
import { EventHub } from '../events/hub';
import { makeRedactor } from '../redact';
import { ReceiptStore } from '../send/receipt-store';
import { SendService } from '../send/send-service';
import { createApp } from './app';
import { PUBLIC_API, WATCH_ONLY_WRITES } from './auth';
import { startDurable } from '../durable';
import { startPush } from '../push';
import { startNerveLink } from '../nerve';
import { crewAdmin } from '../crew/admin-phone';
import { onTestFinished } from 'vitest';
import { allowedHosts } from './security';
import { startWorkbench } from '../workbench';

async function setup(trustedUser: string | null = null) {
  const webDir = mkdtempSync(join(tmpdir(), 'collie-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Collie</title>');
  const stateDir = mkdtempSync(join(tmpdir(), 'collie-state-'));
  const hub = new EventHub('m', 'run');
  const store = await ReceiptStore.open(stateDir);
  const sends = new SendService({ store, hub, locate: () => null, redact: makeRedactor(true), holdMs: 60_000, bufferDir: stateDir });
  const devices = await DeviceStore.open(stateDir);
  // Every part of the API the bridge mounts, real, so the route table below is the bridge's own.
  const redact = makeRedactor(true);
  const durable = await startDurable({ hub, stateDir, configDir: null, machine: 'm', redact });
  const push = await startPush({ stateDir, hub, machine: 'm', redact, durable, log: () => undefined });
  const nerve = startNerveLink({ hub, apiFile: null });
  const audit: Record<string, unknown>[] = [];
  onTestFinished(async () => {
    await push.stop();
    await durable.stop();
    await nerve.stop();
  });
  const app = createApp({
    version: 't',
    run: 'run',
    webDir,
    hosts: () => allowedHosts(8787, []),
    snapshot: () => hub.snapshot(),
    pane: (id) => hub.panes.get(id),
    markSeen: (id) => hub.panes.get(id),
    audit: (e) => audit.push(e),
    sends,
    auth: { devices, trustedUser },
    devices,
    durable,
    push,
    walky: () => null,
    crew: () => ({ crew: null }),
    crewAdmin: crewAdmin(stateDir, () => null),
    nerve: { link: nerve, apiFile: null },
    workbench: await startWorkbench({ stateDir, pane: (id) => hub.panes.get(id), send: (id, text, requestId) => sends.send(id, text, requestId), mux: () => null, setName: () => Promise.resolve(false), panes: () => [], watch: () => () => undefined, sessions: () => Promise.resolve([]), open: () => Promise.reject(new Error('no tmux here')) }),
  });
  return { app, devices, audit };
}

/** Every API route the app has, from Hono's own route table: a new route is in this list by itself. */
function apiRoutes(app: Awaited<ReturnType<typeof setup>>['app']): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of app.routes) {
    if (!r.path.startsWith('/api') || r.method === 'ALL' || r.path.includes('*')) continue;
    const path = r.path.replace(/:id/g, 'x');
    if (seen.has(`${r.method} ${path}`)) continue;
    seen.add(`${r.method} ${path}`);
    out.push({ method: r.method, path });
  }
  return [...out, { method: 'GET', path: '/api/no-such-route' }];
}

const H = { host: '127.0.0.1:8787', 'content-type': 'application/json' };
const loopback = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };

async function ask(app: Awaited<ReturnType<typeof setup>>['app'], r: { method: string; path: string }, headers: Record<string, string>, env: object = loopback) {
  return app.request(r.path, { method: r.method, headers: { ...H, ...headers }, ...(r.method === 'GET' ? {} : { body: '{}' }) }, env);
}

describe('every API route needs a device', () => {
  it('401 without credentials and with a revoked, malformed, foreign or pairing token; served with a bearer or the cookie', async () => {
    const { app, devices } = await setup();
    const other = await setup();
    const routes = apiRoutes(app);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /api/snapshot', 'GET /api/health', 'POST /api/panes/x/send', 'GET /api/devices', 'POST /api/uploads', 'POST /api/panes/x/send-files', 'POST /api/panes/x/rename', 'POST /api/panes/x/close']));
    const good = (await devices.addDevice('script', 'token')).token;
    const gone = await devices.addDevice('old phone', 'browser');
    await devices.revoke(gone.device.id);
    const foreign = (await other.devices.addDevice('elsewhere', 'token')).token;
    const link = (await devices.createOffer()).token;

    const refused: [string, Record<string, string>, string][] = [
      ['no credentials', {}, 'unauthorized'],
      ['a revoked device', { authorization: `Bearer ${gone.token}` }, 'device_revoked'],
      ['a revoked cookie', { cookie: `${devices.cookieName}=${gone.token}` }, 'device_revoked'],
      ['a malformed token', { authorization: 'Bearer not-a-token' }, 'unauthorized'],
      ['a malformed header', { authorization: `Basic ${good}` }, 'unauthorized'],
      ['a token of another state dir', { authorization: `Bearer ${foreign}` }, 'unauthorized'],
      ['a pairing link token', { authorization: `Bearer ${link}` }, 'unauthorized'],
      ['a cookie of another bridge', { cookie: `${other.devices.cookieName}=${foreign}` }, 'unauthorized'],
      ['a proxy login nobody trusts', { 'tailscale-user-login': 'me@example.com' }, 'unauthorized'],
    ];
    for (const r of routes) {
      if (PUBLIC_API.some((p) => p.method === r.method && p.path === r.path)) continue;
      for (const [what, headers, code] of refused) {
        const res = await ask(app, r, headers);
        expect(res.status, `${r.method} ${r.path} with ${what}`).toBe(401);
        expect(ErrorBody.parse(await res.json()).error.code).toBe(code);
      }
      for (const [what, headers] of [
        ['a bearer token', { authorization: `Bearer ${good}` }],
        ['the cookie', { cookie: `other=1; ${devices.cookieName}=${good}` }],
      ] as const) {
        const res = await ask(app, r, headers);
        expect([401, 403], `${r.method} ${r.path} with ${what}: ${res.status}`).not.toContain(res.status);
      }
    }
  });

  it('a watch-only device: every read served, every write refused 403 device_may_not_send and audited, but the few in WATCH_ONLY_WRITES', async () => {
    const { app, devices, audit } = await setup();
    const routes = apiRoutes(app);
    // The table names only routes that exist: a renamed route cannot leave a stale entry behind.
    for (const w of WATCH_ONLY_WRITES) expect(routes.map((r) => `${r.method} ${r.path}`), w.path).toContain(`${w.method} ${w.path.replace(/:id/g, 'x')}`);
    // Routes the brief names as writes a watch-only device must not make are in the table and refused.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /api/panes/x/send', 'POST /api/panes/x/keys', 'POST /api/panes/x/answer', 'POST /api/walky/send', 'POST /api/walky/broadcast', 'POST /api/durable/message', 'POST /api/durable/answer', 'POST /api/crew/invite', 'POST /api/crew/remove', 'POST /api/push/prefs', 'POST /api/quick-replies', 'POST /api/devices/x/right']),
    );
    const watcher = await devices.addDevice('wall screen', 'token', false);
    const sender = (await devices.addDevice('phone', 'token')).token;
    const auth = { authorization: `Bearer ${watcher.token}` };
    // Nerve's forward is one catch-all: a write through it is a write too.
    const all = [...routes, { method: 'POST', path: '/api/nerve/sessions' }, { method: 'DELETE', path: '/api/nerve/sessions/s1' }, { method: 'PUT', path: '/api/panes/x/send' }];
    let refusedWrites = 0;
    for (const r of all) {
      if (PUBLIC_API.some((p) => p.method === r.method && p.path === r.path)) continue;
      const allowed = r.method === 'GET' || WATCH_ONLY_WRITES.some((w) => w.method === r.method && w.path.replace(/:id/g, 'x') === r.path && !w.self);
      const before = audit.length;
      const res = await ask(app, r, auth);
      if (allowed) {
        expect([401, 403], `${r.method} ${r.path} as a watch-only device: ${res.status}`).not.toContain(res.status);
        continue;
      }
      expect(res.status, `${r.method} ${r.path} as a watch-only device`).toBe(403);
      expect(ErrorBody.parse(await res.json()).error).toMatchObject({ code: 'device_may_not_send', message: expect.stringContaining('collie devices set') });
      expect(audit.slice(before)).toEqual([{ method: r.method, path: r.path, status: 403, code: 'device_may_not_send', by: expect.stringMatching(/^device wall screen \(/u) }]);
      refusedWrites++;
      // The same write from a device that may send passes this gate.
      const ok = await ask(app, r, { authorization: `Bearer ${sender}` });
      expect(ok.status === 403 && ErrorBody.safeParse(await ok.json()).data?.error.code === 'device_may_not_send', `${r.method} ${r.path} as a device that may send`).toBe(false);
    }
    expect(refusedWrites).toBeGreaterThan(25);
    // A watch-only device may remove itself, and no other device.
    const other = await devices.addDevice('old tablet', 'browser');
    const revokeOther = await ask(app, { method: 'POST', path: `/api/devices/${other.device.id}/revoke` }, auth);
    expect(revokeOther.status).toBe(403);
    expect(devices.find(other.device.id)).not.toBeNull();
    const revokeSelf = await ask(app, { method: 'POST', path: `/api/devices/${watcher.device.id}/revoke` }, auth);
    expect(revokeSelf.status).toBe(200);
    expect((await ask(app, { method: 'GET', path: '/api/snapshot' }, auth)).status).toBe(401);
  });

  it("a device that may send changes another device's right at POST /api/devices/:id/right; the change holds at once", async () => {
    const { app, devices, audit } = await setup();
    const phone = await devices.addDevice('phone', 'browser');
    const tablet = await devices.addDevice('tablet', 'browser');
    const as = (t: string) => ({ authorization: `Bearer ${t}` });
    const right = (id: string, body: unknown, headers: Record<string, string>) => app.request(`/api/devices/${id}/right`, { method: 'POST', headers: { ...H, ...headers }, body: JSON.stringify(body) }, loopback);
    const send = { method: 'POST', path: '/api/panes/x/send' };
    expect((await ask(app, send, as(tablet.token))).status).not.toBe(403);
    const made = await right(tablet.device.id, { maySend: false }, as(phone.token));
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ ok: true, device: { id: tablet.device.id, maySend: false } });
    expect(audit.at(-2)).toMatchObject({ action: 'device.right', device: 'tablet', maySend: false, by: 'phone' });
    expect((await ask(app, send, as(tablet.token))).status).toBe(403);
    const list = (await (await ask(app, { method: 'GET', path: '/api/devices' }, as(tablet.token))).json()) as { devices: { name: string; maySend: boolean; current: boolean }[] };
    expect(list.devices.find((d) => d.name === 'tablet')).toMatchObject({ maySend: false, current: true });
    // The watch-only device cannot give itself the right back, nor take another's.
    expect((await right(tablet.device.id, { maySend: true }, as(tablet.token))).status).toBe(403);
    expect((await right(phone.device.id, { maySend: false }, as(tablet.token))).status).toBe(403);
    // Bad bodies and unknown devices answer with their codes.
    for (const [body, status, code] of [[{}, 400, 'bad_request'], [{ maySend: 'no' }, 400, 'bad_request'], [{ maySend: true, extra: 1 }, 400, 'bad_request']] as const) {
      const res = await right(tablet.device.id, body, as(phone.token));
      expect(res.status).toBe(status);
      expect(ErrorBody.parse(await res.json()).error.code).toBe(code);
    }
    expect((await right('000000000000', { maySend: true }, as(phone.token))).status).toBe(404);
    expect((await right(tablet.device.id, { maySend: true }, as(phone.token))).status).toBe(200);
    expect((await ask(app, send, as(tablet.token))).status).not.toBe(403);
  });

  it('the static shell and the pairing page load without a device and hold nothing of the machine', async () => {
    const { app } = await setup();
    for (const path of ['/', '/index.html', '/pair']) {
      const res = await app.request(path, { headers: H });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<!doctype html><title>Collie</title>');
    }
  });

  it('COLLIE_TRUSTED_USER: loopback alone proves nothing; a peer no socket of this machine shows to be the proxy user is refused', async () => {
    const { app } = await setup('me@example.com');
    const snap = { method: 'GET', path: '/api/snapshot' };
    // These peers are no real connection: no /proc/net row names their owner. (The proxy let in
    // over a real connection, and another local user refused, are in test/security/trusted-proxy.test.ts.)
    for (const remoteAddress of ['127.0.0.1', '::ffff:127.0.0.1', '::1', '100.101.102.103']) {
      const env = { incoming: { socket: { remoteAddress, remotePort: 1, localAddress: '127.0.0.1', localPort: 8787 } } };
      expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' }, env)).status).toBe(401);
    }
    expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' }, {})).status).toBe(401);
  });

  it('pairing sets an HttpOnly, SameSite=Strict cookie, Secure under https; the token is in no body', async () => {
    const { app, devices } = await setup();
    const offer = await devices.createOffer();
    const res = await app.request('/api/pair', { method: 'POST', headers: { ...H, origin: 'https://box.tail1234.ts.net', host: '127.0.0.1:8787' }, body: JSON.stringify({ code: offer.code }) });
    // A proxy origin that is not the Host is refused by the same-origin gate first.
    expect(res.status).toBe(403);
    const ok = await app.request('/api/pair', { method: 'POST', headers: { ...H, 'x-forwarded-proto': 'https' }, body: JSON.stringify({ code: offer.code.toLowerCase() }) });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${devices.cookieName}=cd1_`));
    for (const attr of ['HttpOnly', 'SameSite=Strict', 'Secure', 'Path=/']) expect(cookie).toContain(attr);
    const token = /=([^;]+)/.exec(cookie)![1]!;
    expect(await ok.text()).not.toContain(token);
    expect((await app.request('/api/snapshot', { headers: { ...H, cookie: `${devices.cookieName}=${token}` } })).status).toBe(200);
  });
});
