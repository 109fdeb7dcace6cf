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
import { PUBLIC_API } from './auth';
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
  const app = createApp({
    version: 't',
    run: 'run',
    webDir,
    hosts: () => allowedHosts(8787, []),
    snapshot: () => hub.snapshot(),
    pane: (id) => hub.panes.get(id),
    markSeen: (id) => hub.panes.get(id),
    audit: () => undefined,
    sends,
    auth: { devices, trustedUser },
    devices,
    workbench: await startWorkbench({ stateDir, pane: (id) => hub.panes.get(id), send: (id, text, requestId) => sends.send(id, text, requestId), mux: () => null, panes: () => [], watch: () => () => undefined, sessions: () => Promise.resolve([]), open: () => Promise.reject(new Error('no tmux here')) }),
  });
  return { app, devices };
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

  it('the static shell and the pairing page load without a device and hold nothing of the machine', async () => {
    const { app } = await setup();
    for (const path of ['/', '/index.html', '/pair']) {
      const res = await app.request(path, { headers: H });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<!doctype html><title>Collie</title>');
    }
  });

  it('COLLIE_TRUSTED_USER: that login from loopback only; another login, or any peer elsewhere, is refused', async () => {
    const { app } = await setup('me@example.com');
    const snap = { method: 'GET', path: '/api/snapshot' };
    expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' })).status).toBe(200);
    expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' }, { incoming: { socket: { remoteAddress: '::ffff:127.0.0.1' } } })).status).toBe(200);
    expect((await ask(app, snap, { 'tailscale-user-login': 'you@example.com' })).status).toBe(401);
    expect((await ask(app, snap, { 'tailscale-user-login': 'ME@example.com' })).status).toBe(401);
    expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' }, { incoming: { socket: { remoteAddress: '100.101.102.103' } } })).status).toBe(401);
    expect((await ask(app, snap, { 'tailscale-user-login': 'me@example.com' }, {})).status).toBe(401);
    const list = await ask(app, { method: 'GET', path: '/api/devices' }, { 'tailscale-user-login': 'me@example.com' });
    expect(await list.json()).toMatchObject({ via: { kind: 'proxy', login: 'me@example.com' } });
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
