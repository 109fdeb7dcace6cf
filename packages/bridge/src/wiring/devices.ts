import { AuditFlood, appendAudit } from '../config';
import { DeviceStore } from '../devices';
import type { AuthDeps } from '../http/auth';
import type { BridgeOptions } from './options';

/** The paired devices, who the API lets in, and the audit log of what they did. */
export async function openDevices(o: BridgeOptions): Promise<{ devices: DeviceStore; auth: AuthDeps; audit: (entry: Record<string, unknown>) => void; auditFlood: AuditFlood }> {
  // Refused requests come in floods (any web page can send them): counted, not each written.
  const auditFlood = new AuditFlood({ write: (entry) => void appendAudit(o.stateDir, entry).catch(() => undefined) });
  const audit = (entry: Record<string, unknown>) => auditFlood.offer(entry);
  const devices = await DeviceStore.open(o.stateDir, {}, (l) => process.stderr.write(`collie: ${l}\n`));
  const auth = { devices, trustedUser: o.trustedUser ?? null, trustedProxyUid: o.trustedProxyUid ?? 0 };
  return { devices, auth, audit, auditFlood };
}
