/**
 * What `collie pair`, `collie token` and `collie devices` ask for, answered the same way by
 * the running bridge (over its devices socket) and, with no bridge, on the file directly.
 */
import type { DevicesCommand, DevicesReply } from '@collie/protocol';
import { type DeviceStore, toDevice } from './store';

export interface DeviceOps {
  store: DeviceStore;
  run: string;
  /** The bridge's own loopback URL (or, with no bridge, the one it will have). */
  url: string;
  publicUrl: string | null;
  audit: (entry: Record<string, unknown>) => void;
  /** The durable agents' states (the running bridge only). */
  durable?: () => { name: string; state: string; problem: string | null }[];
}

export async function runDevicesCommand(cmd: DevicesCommand, o: DeviceOps): Promise<DevicesReply> {
  switch (cmd.op) {
    case 'hello':
      return { type: 'hello', run: o.run, url: o.url, publicUrl: o.publicUrl };
    case 'pair': {
      const offer = await o.store.createOffer(cmd.maySend ?? true);
      o.audit({ action: 'pairing.offered', by: 'collie pair', expiresAt: new Date(offer.expiresAt).toISOString(), maySend: offer.maySend });
      return { type: 'pairing', offer, url: o.url, publicUrl: o.publicUrl };
    }
    case 'token': {
      const { device, token } = await o.store.addDevice(cmd.name, 'token', cmd.maySend ?? true);
      o.audit({ action: 'device.paired', device: device.name, id: device.id, via: 'collie token', maySend: device.maySend });
      return { type: 'token', token, device: toDevice(device, null) };
    }
    case 'list':
      return { type: 'devices', devices: o.store.list() };
    case 'durable':
      return { type: 'durable', agents: o.durable?.() ?? [] };
    case 'revoke': {
      const device = o.store.find(cmd.name);
      if (!device) return { type: 'error', error: { code: 'not_found', message: `collie devices: no paired device is called '${cmd.name}' (see collie devices list)` } };
      await o.store.revoke(device.id);
      o.audit({ action: 'device.revoked', device: device.name, id: device.id, by: 'collie devices revoke' });
      return { type: 'revoked', device: toDevice(device, null) };
    }
    case 'set': {
      const device = o.store.find(cmd.name);
      if (!device) return { type: 'error', error: { code: 'not_found', message: `collie devices: no paired device is called '${cmd.name}' (see collie devices list)` } };
      const changed = await o.store.setRight(device.id, cmd.maySend);
      if (changed) o.audit({ action: 'device.right', device: device.name, id: device.id, maySend: cmd.maySend, by: 'collie devices set' });
      return { type: 'set', device: toDevice(o.store.find(device.id) ?? device, null), changed };
    }
  }
}
