import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBody, Snapshot } from '@collie/protocol';
import { EventHub } from '../events/hub';
import { createApp, MAX_BODY_BYTES } from './app';
import { allowedHosts } from './security';
import { makeRedactor } from '../redact';
import { ReceiptStore } from '../send/receipt-store';
import { SendService } from '../send/send-service';
import { DeviceStore } from '../devices';

async function app() {
  const webDir = mkdtempSync(join(tmpdir(), 'collie-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Collie</title>');
  const hub = new EventHub('m', 'run');
  const stateDir = mkdtempSync(join(tmpdir(), 'collie-state-'));
  const store = await ReceiptStore.open(stateDir);
  const sends = new SendService({ store, hub, locate: () => null, redact: makeRedactor(true), holdMs: 60_000, bufferDir: stateDir });
  const audit: Record<string, unknown>[] = [];
  const devices = await DeviceStore.open(stateDir);
  // Every request below comes from a paired device (a bearer token), as a script's would.
  H.authorization = `Bearer ${(await devices.addDevice('test', 'token')).token}`;
  const a = createApp({
    version: 't',
    run: 'run',
    webDir,
    hosts: () => allowedHosts(8787, []),
    snapshot: () => hub.snapshot(),
    pane: (id) => hub.panes.get(id),
    markSeen: (id) => hub.panes.get(id),
    audit: (e) => audit.push(e),
    sends,
    auth: { devices, trustedUser: null },
    devices,
  });
  return { a, audit };
}

const H: Record<string, string> = { host: '127.0.0.1:8787' };
const post = (body: string, headers: Record<string, string> = {}) => ({ method: 'POST', body, headers: { ...H, 'content-type': 'application/json', ...headers } });

async function errorCode(res: Response): Promise<string> {
  return ErrorBody.parse(await res.json()).error.code;
}

describe('HTTP app', () => {
  it('serves the snapshot and the page with the security headers', async () => {
    const { a } = await app();
    const snap = await a.request('/api/snapshot', { headers: H });
    expect(snap.status).toBe(200);
    expect(Snapshot.parse(await snap.json()).version).toBe(1);
    const page = await a.request('/', { headers: H });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses a foreign Host (DNS rebinding) and a cross-origin request with codes', async () => {
    const { a } = await app();
    const rebinding = await a.request('/api/snapshot', { headers: { host: 'evil.example:8787' } });
    expect(rebinding.status).toBe(403);
    expect(await errorCode(rebinding)).toBe('forbidden_host');
    const cross = await a.request('/api/panes/default%3A%251/seen', post('{}', { origin: 'http://evil.example' }));
    expect(cross.status).toBe(403);
    expect(await errorCode(cross)).toBe('forbidden_origin');
  });

  it('answers malformed writes with 4xx and a code, and audits every write', async () => {
    const { a, audit } = await app();
    const cases: [RequestInit, number, string][] = [
      [post('{nope'), 400, 'bad_json'],
      [post('{"x":1}'), 400, 'bad_request'],
      [post('{}'), 404, 'not_found'],
      [{ method: 'POST', body: '{}', headers: { ...H, 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
      [post('x'.repeat(MAX_BODY_BYTES + 1)), 413, 'payload_too_large'],
      [{ method: 'DELETE', headers: { ...H, 'content-type': 'application/json' } }, 405, 'method_not_allowed'],
    ];
    for (const [init, status, code] of cases) {
      const res = await a.request('/api/panes/default%3A%251/seen', init);
      expect(res.status, code).toBe(status);
      expect(await errorCode(res)).toBe(code);
    }
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect((await a.request('/api/nothing', { headers: H })).status).toBe(404);
  });

  it('audits writes refused at the gates (Host, Origin, media type), without their bodies (issue 15, fault 8)', async () => {
    const { a, audit } = await app();
    const secret = 'sk-live-do-not-log-me';
    const body = JSON.stringify({ text: secret, request_id: 'r1' });
    const path = '/api/panes/default%3A%251/send';
    expect((await a.request(path, { method: 'POST', body, headers: { host: 'evil.example', 'content-type': 'application/json' } })).status).toBe(403);
    expect((await a.request(path, post(body, { origin: 'http://evil.example' }))).status).toBe(403);
    expect((await a.request(path, { method: 'POST', body, headers: { ...H, 'content-type': 'text/plain' } })).status).toBe(415);
    expect(audit).toEqual([
      { method: 'POST', path, status: 403, code: 'forbidden_host' },
      { method: 'POST', path, status: 403, code: 'forbidden_origin' },
      { method: 'POST', path, status: 415, code: 'unsupported_media_type' },
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret);
    // Reads refused at the gates are not writes: not audited.
    await a.request('/api/snapshot', { headers: { host: 'evil.example' } });
    expect(audit).toHaveLength(3);
  });

  it('never answers 5xx, whatever the path, method or body', async () => {
    const { a } = await app();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
        fc.oneof(
          fc.webPath(),
          fc.string().map((s) => `/api/panes/${encodeURIComponent(s)}/seen`),
          fc.constantFrom('send', 'keys', 'answer').map((v) => `/api/panes/default%3A%251/${v}`),
          fc.string().map((s) => `/${s.replace(/[?#]/g, '')}`),
        ),
        fc.oneof(fc.string({ maxLength: 300 }), fc.json(), fc.record({ text: fc.string(), request_id: fc.string(), keys: fc.array(fc.string()), option: fc.integer() }).map((o) => JSON.stringify(o))),
        async (method, path, body) => {
          let url: string;
          try {
            url = new URL(path, 'http://127.0.0.1:8787').pathname;
          } catch {
            return;
          }
          const init: RequestInit = { method, headers: { ...H, 'content-type': 'application/json' } };
          if (method !== 'GET' && method !== 'HEAD') init.body = body;
          const res = await a.request(url, init);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not serve files outside the web dir', async () => {
    const { a } = await app();
    for (const p of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd.txt', '/assets/..%2f..%2f..%2fetc%2fhostname.txt']) {
      const res = await a.request(p, { headers: H });
      const text = await res.text();
      expect(text).not.toContain('root:');
      // A path with no extension is a client route and gets the app shell; nothing else leaks.
      if (res.status === 200) expect(text).toBe('<!doctype html><title>Collie</title>');
      else expect([400, 404]).toContain(res.status);
    }
  });
});
