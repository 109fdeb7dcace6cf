import { DeviceResult, DevicesList, ErrorBody, PhonePairOffer } from '@collie/protocol';
import { auth } from './auth-state';

export type DevicesResult<T> = { ok: true; value: T } | { ok: false; message: string };

export async function call<T>(path: string, parse: (body: unknown) => T | null, init?: RequestInit): Promise<DevicesResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { cache: 'no-store', ...init });
  } catch {
    return { ok: false, message: "Can't reach the bridge." };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401) auth.lost(null);
  if (!response.ok) {
    const err = ErrorBody.safeParse(body);
    return { ok: false, message: err.success ? err.data.error.message.replace(/^bridge: /, '') : `The bridge answered ${response.status}.` };
  }
  const value = parse(body);
  return value === null ? { ok: false, message: 'The bridge answered something unexpected.' } : { ok: true, value };
}

export const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** `GET /api/devices`. */
export function fetchDevices(): Promise<DevicesResult<DevicesList>> {
  return call('/api/devices', (b) => DevicesList.safeParse(b).data ?? null);
}

export function renameDevice(id: string, name: string): Promise<DevicesResult<unknown>> {
  return call(`/api/devices/${encodeURIComponent(id)}/rename`, (b) => DeviceResult.safeParse(b).data ?? null, post({ name }));
}

export function revokeDevice(id: string): Promise<DevicesResult<unknown>> {
  return call(`/api/devices/${encodeURIComponent(id)}/revoke`, (b) => DeviceResult.safeParse(b).data ?? null, post({}));
}

/** `POST /api/devices/:id/right`: may send (true) or watch only (false). */
export function setDeviceRight(id: string, maySend: boolean): Promise<DevicesResult<unknown>> {
  return call(`/api/devices/${encodeURIComponent(id)}/right`, (b) => DeviceResult.safeParse(b).data ?? null, post({ maySend }));
}

/** `POST /api/devices/pair`: a one-time link, code and QR code for another device. */
export function offerPairing(maySend: boolean): Promise<DevicesResult<PhonePairOffer>> {
  return call('/api/devices/pair', (b) => PhonePairOffer.safeParse(b).data ?? null, post({ may_send: maySend }));
}
