import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config';
import { generateVapidKeys } from './web-push';

/** The bridge's VAPID key pair (RFC 8292), base64url as the push library takes it. */
export const VapidFile = z.object({
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
  privateKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** The contact a push service may write to about this sender: a mailto: or https: URL. */
  subject: z.string().regex(/^(mailto:|https:\/\/)\S+$/),
  createdAt: z.number(),
});
export type VapidKeys = z.infer<typeof VapidFile>;

/** Apple refuses a JWT whose `sub` is not a mailto: or https: URL; this one names nobody. */
export const DEFAULT_SUBJECT = 'mailto:push@collie.invalid';

export const pushDir = (stateDir: string) => join(stateDir, 'push');
export const vapidFile = (stateDir: string) => join(pushDir(stateDir), 'vapid.json');

/** The keys in `<state>/push/vapid.json`, or null when there are none yet (or the file is damaged). */
export async function readVapidKeys(stateDir: string): Promise<VapidKeys | null> {
  try {
    const parsed = VapidFile.safeParse(JSON.parse(await readFile(vapidFile(stateDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The keys, made once and kept (0600 in a 0700 dir, written atomically): a new pair would
 * orphan every subscription the phones hold, so an existing good file is never replaced.
 */
export async function ensureVapidKeys(stateDir: string, now: number = Date.now()): Promise<{ keys: VapidKeys; created: boolean }> {
  const existing = await readVapidKeys(stateDir);
  if (existing) return { keys: existing, created: false };
  await mkdir(pushDir(stateDir), { recursive: true, mode: 0o700 });
  const keys: VapidKeys = { ...generateVapidKeys(), subject: DEFAULT_SUBJECT, createdAt: now };
  await writeFileAtomic(vapidFile(stateDir), `${JSON.stringify(keys, null, 2)}\n`, 0o600);
  return { keys, created: true };
}
