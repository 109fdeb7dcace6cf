import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { DeviceRightRequest, PairRequest, PairingToken, PhonePairRequest, RenameDeviceRequest, RevokeDeviceRequest, type DevicesList, type PhonePairOffer } from '@collie/protocol';
import { type DeviceStore, LOCK_MS, formatCode, nameFromUserAgent, pairingLink, toDevice } from '../../devices';
import { qrModules } from '../../commands/qr';
import { ApiError, fail } from '../api-error';
import { body } from './sends';

export interface DevicesRouteDeps {
  devices: DeviceStore;
  audit: (entry: Record<string, unknown>) => void;
  /** The address a phone opens (`COLLIE_PUBLIC_URL`, tailscale serve's), once known; null: none. */
  publicUrl?: () => string | null;
}

/** Browsers cap a cookie's life at 400 days; revoking is how a device leaves before that. */
const COOKIE_MAX_AGE = 400 * 24 * 3600;

/** The page came over https (the proxy's origin, or its forwarded scheme): the cookie is Secure. */
function secure(c: Context): boolean {
  return (c.req.header('origin') ?? '').startsWith('https://') || c.req.header('x-forwarded-proto') === 'https';
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/**
 * `POST /api/pair` (the one route open without a device) and `/api/devices/…`. Audit lines
 * name the device and the reason, never a token or a code.
 */
export function devicesRoutes(d: DevicesRouteDeps): Hono {
  const r = new Hono();

  r.post('/pair', async (c) => {
    const b = await body(c, PairRequest);
    if (b instanceof ApiError) return fail(c, b);
    if ('token' in b && !PairingToken.safeParse(b.token).success) {
      d.audit({ action: 'pairing.failed', reason: 'malformed link' });
      return fail(c, new ApiError('pairing_failed', 'bridge: this pairing link is damaged; run collie pair for a new one'));
    }
    const out = await d.devices.redeem(b, nameFromUserAgent(c.req.header('user-agent')));
    if (!out.ok || !out.device || !out.token) {
      const reason = out.ok ? 'internal' : out.reason;
      const until = out.ok ? null : out.lockedUntil;
      d.audit({ action: reason === 'locked' ? 'pairing.locked' : 'pairing.failed', reason, ...(until ? { lockedUntil: new Date(until).toISOString() } : {}) });
      const left = out.ok ? 0 : out.triesLeft;
      const message = {
        wrong_code: `bridge: that code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left before pairing locks for ${minutes(LOCK_MS)} minutes`,
        locked: `bridge: too many wrong codes; pairing is locked for ${minutes((until ?? 0) - d.devices.now())} more minutes`,
        used: 'bridge: this pairing link or code was already used; run collie pair for a new one',
        expired: 'bridge: this pairing link or code has expired (they last 10 minutes); run collie pair for a new one',
        unknown_link: 'bridge: this pairing link is not one this bridge made; run collie pair for a new one',
        internal: 'bridge: pairing failed',
      }[reason];
      return fail(c, new ApiError(reason === 'locked' ? 'pairing_locked' : 'pairing_failed', message));
    }
    d.audit({ action: 'device.paired', device: out.device.name, id: out.device.id, via: out.via, maySend: out.device.maySend });
    setCookie(c, d.devices.cookieName, out.token, { httpOnly: true, sameSite: 'Strict', secure: secure(c), path: '/', maxAge: COOKIE_MAX_AGE });
    return c.json({ ok: true, device: toDevice(out.device, out.device.id) });
  });

  // Pair another device from a phone (only one that may send gets here: `sendRight` in auth.ts).
  r.post('/devices/pair', async (c) => {
    const b = await body(c, PhonePairRequest);
    if (b instanceof ApiError) return fail(c, b);
    const offer = await d.devices.createOffer(b.may_send);
    const who = c.get('who');
    d.audit({ action: 'pairing.offered', by: who.kind === 'device' ? who.device.name : who.login, expiresAt: new Date(offer.expiresAt).toISOString(), maySend: offer.maySend });
    // The second phone opens what this one opened, unless the bridge knows its public address.
    const origin = new URL(c.req.url);
    const base = d.publicUrl?.() ?? `${c.req.header('x-forwarded-proto') === 'https' ? 'https' : origin.protocol.slice(0, -1)}://${origin.host}`;
    const link = pairingLink(base, offer.token);
    const answer: PhonePairOffer = { link, code: formatCode(offer.code), expiresAt: offer.expiresAt, maySend: offer.maySend, qr: qrModules(link) };
    return c.json(answer);
  });

  r.get('/devices', (c) => {
    const who = c.get('who');
    const current = who.kind === 'device' ? who.device.id : null;
    const list: DevicesList = { devices: d.devices.list(current), via: who.kind === 'device' ? { kind: 'device', id: who.device.id } : { kind: 'proxy', login: who.login } };
    return c.json(list);
  });

  r.post('/devices/:id/rename', async (c) => {
    const b = await body(c, RenameDeviceRequest);
    if (b instanceof ApiError) return fail(c, b);
    const dev = d.devices.find(c.req.param('id'));
    if (!dev || dev.id !== c.req.param('id')) return fail(c, new ApiError('not_found', 'bridge: no such device'));
    if (!(await d.devices.rename(dev.id, b.name))) return fail(c, new ApiError('conflict', `bridge: another device is called '${b.name}'`));
    d.audit({ action: 'device.renamed', id: dev.id, device: b.name });
    const who = c.get('who');
    return c.json({ ok: true, device: toDevice({ ...dev, name: b.name }, who.kind === 'device' ? who.device.id : null) });
  });

  // Only a device that may send gets here (`sendRight` in auth.ts): a watch-only one cannot lift its own right.
  r.post('/devices/:id/right', async (c) => {
    const b = await body(c, DeviceRightRequest);
    if (b instanceof ApiError) return fail(c, b);
    const dev = d.devices.find(c.req.param('id'));
    if (!dev || dev.id !== c.req.param('id')) return fail(c, new ApiError('not_found', 'bridge: no such device'));
    const who = c.get('who');
    if (await d.devices.setRight(dev.id, b.maySend)) d.audit({ action: 'device.right', id: dev.id, device: dev.name, maySend: b.maySend, by: who.kind === 'device' ? who.device.name : who.login });
    return c.json({ ok: true, device: toDevice({ ...dev, maySend: b.maySend }, who.kind === 'device' ? who.device.id : null) });
  });

  r.post('/devices/:id/revoke', async (c) => {
    const b = await body(c, RevokeDeviceRequest);
    if (b instanceof ApiError) return fail(c, b);
    const dev = d.devices.find(c.req.param('id'));
    if (!dev || dev.id !== c.req.param('id')) return fail(c, new ApiError('not_found', 'bridge: no such device'));
    await d.devices.revoke(dev.id);
    const who = c.get('who');
    d.audit({ action: 'device.revoked', id: dev.id, device: dev.name, by: who.kind === 'device' ? who.device.name : who.login });
    if (who.kind === 'device' && who.device.id === dev.id) deleteCookie(c, d.devices.cookieName, { path: '/' });
    return c.json({ ok: true, device: toDevice({ ...dev, revokedAt: d.devices.now() }, null) });
  });

  return r;
}
